// The adapter's ports for telemetry: where it writes its log lines, reports finished requests
// (metrics) and opens spans (traces). Each is called inside a guard: a port that throws loses its
// report, never the request.

// The logger port is the core's, shared with the app that composes the adapter; the adapter calls
// it inside a try: a logger that throws loses its line, never the request.
export type { Logger } from '../../../core/index.js'
export type { RequestHeaders, RequestSpan, RequestTracer } from '../../../wire/index.js'
import type { Logger } from '../../../core/index.js'
import type { RequestSpan, RequestTracer } from '../../../wire/index.js'

/**
 * The log an app gets when given none: what needs someone's attention (a 500's cause, storage
 * out of reach) goes to `console.warn` and `console.error`; the line of each answered request is
 * dropped, since a library that prints a line per request by default floods its host's output.
 */
export const warningsToConsole: Logger = {
  info: () => {},
  warn: (message, fields) => console.warn(message, fields ?? {}),
  error: (message, fields) => console.error(message, fields ?? {}),
}

/**
 * Where the HTTP adapter reports each finished request, for metrics. `route` is the route
 * pattern (or `unmatched`), never the raw path, and `method` one of the standard methods or
 * `OTHER`, so the values stay a small bounded set. It is called once per request, on the hot
 * path: keep it cheap; if it throws, the request is answered as it would have been.
 */
export interface HttpObserver {
  readonly requestFinished: (route: string, method: string, status: number, seconds: number) => void
}

export const ignoreRequests: HttpObserver = { requestFinished: () => {} }

/** A request in no trace: what `traceNoRequests` starts. */
export const untraced: RequestSpan = { traceId: undefined, spanId: undefined, run: (handle) => handle(), finished: () => {} }

/** No spans: the default. A `traceparent`'s trace id still reaches the request's log line. */
export const traceNoRequests: RequestTracer = { requestStarted: () => untraced }
