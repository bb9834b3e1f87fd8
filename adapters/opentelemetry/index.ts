// The public surface of the OpenTelemetry adapter, named export by export. It speaks only to
// @opentelemetry/api: the host application registers an SDK (and exporters) or none, and with
// none every span is the API's no-op.
export { openTelemetryRequestTracer } from './request-tracer.js'
export type { TracedRequest } from './request-tracer.js'
export { traceAuthenticator } from './trace-authenticator.js'
export { tracePlantStore } from './trace-plant-store.js'
export { plantStoreTracer, tracerProviderRegistered } from './tracer.js'
