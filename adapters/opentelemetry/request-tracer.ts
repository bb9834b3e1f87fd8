import type { Context, Tracer } from '@opentelemetry/api'
import type { RequestSpan, RequestTracer, TraceParent } from '../../wire/index.js'
import { plantStoreTracer } from './tracer.js'
import { context, createTraceState, isSpanContextValid, SpanKind, SpanStatusCode, trace } from './peers.js'

/** A caller's trace context, read from its `traceparent` header. */
export type RemoteParent = TraceParent

/** One request's span, as the HTTP adapter runs a request in it. */
export type TracedRequest = RequestSpan

/**
 * The HTTP adapter's `RequestTracer` port (its types from the wire, which adapters share: adapters do not import each other)
 * on OpenTelemetry: each request is a SERVER span named
 * `<method> <route>` (`POST /plants`), a child of the caller's `traceparent` when it sent one,
 * current while the request is handled (so the ports' spans are its children), with the HTTP
 * semantic conventions' `http.request.method`, `http.route` and `http.response.status_code`; a
 * failure, as the HTTP adapter judges it (a 5xx but 501), marks it as an error. The parent is read from the
 * header by the HTTP adapter itself, so it is honoured whatever propagator the host registered,
 * or none.
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
  requestStarted: (method, parent, traceState) => {
    const parentContext = parent === undefined ? context.active() : remoteParent(parent, traceState)
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parentContext)
    // With no SDK registered the span records nothing, and is the caller's context at most: the
    // request runs as it would untraced, and the HTTP adapter logs the traceparent's trace id.
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

const remoteParent = ({ traceId, parentId, flags }: RemoteParent, traceState: string | undefined): Context => {
  const spanContext = { traceId, spanId: parentId, traceFlags: flags, isRemote: true }
  const parent = traceState === undefined ? spanContext : { ...spanContext, traceState: createTraceState(traceState) }
  return isSpanContextValid(parent) ? trace.setSpanContext(context.active(), parent) : context.active()
}
