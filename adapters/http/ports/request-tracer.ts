import type { TraceParent } from '../request/trace-parent.js'

/** One request's span, from its start to its answer. */
export interface RequestSpan {
  /** The trace the request runs in, for its log line; undefined when it runs in none. */
  readonly traceId: string | undefined
  /** The request's own span, for its log line; undefined when it has none. */
  readonly spanId: string | undefined
  /** Runs the handling of the request with this span as the current one, so spans below it are its children. */
  readonly run: (handle: () => Promise<void>) => Promise<void>
  /** Called once, after the answer is settled, with the route that answered and the status. */
  readonly finished: (route: string, status: number) => void
}

/**
 * Where the HTTP adapter opens a span for each request (OpenTelemetry, say). `parent` is the
 * caller's trace context when the request carried a valid `traceparent`, and `traceState` its
 * `tracestate` header. Called on the hot path: keep it cheap; if it throws, the request is
 * answered untraced.
 */
export interface RequestTracer {
  readonly requestStarted: (method: string, parent: TraceParent | undefined, traceState: string | undefined) => RequestSpan
}

/** A request in no trace: what `traceNoRequests` starts. */
export const untraced: RequestSpan = { traceId: undefined, spanId: undefined, run: (handle) => handle(), finished: () => {} }

/** No spans: the default. A `traceparent`'s trace id still reaches the request's log line. */
export const traceNoRequests: RequestTracer = { requestStarted: () => untraced }
