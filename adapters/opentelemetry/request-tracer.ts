import type { Tracer } from '@opentelemetry/api'
import type { RequestSpan, RequestTracer } from '../../wire/index.js'
import { plantStoreTracer } from './tracer.js'
import { context, defaultTextMapGetter, propagation, SpanKind, SpanStatusCode, trace } from './peers.js'

/** One request's span, as the HTTP adapter runs a request in it. */
export type TracedRequest = RequestSpan

/**
 * The HTTP adapter's `RequestTracer` port (its types from the wire, which adapters share: adapters do not import each other)
 * on OpenTelemetry: each request is a SERVER span named
 * `<method> <route>` (`POST /plants`), current while the request is handled (so the ports' spans
 * are its children), with the HTTP semantic conventions' `http.request.method`, `http.route` and
 * `http.response.status_code`; a failure, as the HTTP adapter judges it (a 5xx but 501), marks it
 * as an error. Its remote parent is what the propagator the host registered with
 * `@opentelemetry/api` reads from the request's header fields (W3C trace context, B3, Jaeger...);
 * with none registered, the span has no remote parent.
 *
 * @example
 * ```ts
 * import { createHttpApp } from 'plant-store/adapters/http'
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 * import { openTelemetryRequestTracer } from 'plant-store/adapters/opentelemetry'
 *
 * const app = createHttpApp({
 *   plantStore: makeInMemoryPlantStore(),
 *   authenticator: makeStaticTokenAuthenticator(['s3cret-token']),
 *   tracer: openTelemetryRequestTracer(),
 * })
 * ```
 */
export const openTelemetryRequestTracer = (
  tracer: Tracer = plantStoreTracer(),
): RequestTracer => ({
  requestStarted: (method, headers) => {
    const parentContext = propagation.extract(context.active(), headers, defaultTextMapGetter)
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parentContext)
    // With no SDK registered the span records nothing, and is the caller's context at most: the
    // request runs as it would untraced, and the HTTP adapter logs a traceparent's trace id.
    if (!span.isRecording()) return NOT_RECORDING
    const { traceId, spanId } = span.spanContext()
    const active = trace.setSpan(parentContext, span)
    return {
      traceId,
      spanId,
      run: (handle) => context.with(active, handle),
      finished: (route, status, failed) => {
        span.updateName(`${method} ${route}`)
        span.setAttribute('http.route', route)
        span.setAttribute('http.response.status_code', status)
        if (failed) span.setStatus({ code: SpanStatusCode.ERROR })
        span.end()
      },
    }
  },
})

const NOT_RECORDING: TracedRequest = { traceId: undefined, spanId: undefined, run: (handle) => handle(), finished: () => {} }
