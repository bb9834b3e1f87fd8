import { trace, type Tracer } from '@opentelemetry/api'

// The instrumentation scope the service's spans are reported under.
const SCOPE = 'plant-store'

/**
 * The tracer of the host application's registered OpenTelemetry SDK, or the API's no-op tracer
 * while none is: asked once, it follows an SDK registered later.
 */
export const plantStoreTracer = (): Tracer => trace.getTracer(SCOPE)
