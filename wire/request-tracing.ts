// What a request tracer is to the HTTP adapter, which opens a span per request through it, and to
// any adapter that implements it (OpenTelemetry's): types only, shared as the rest of the API's
// vocabulary is.

/**
 * A request's header fields by lower-case name, as Node's `IncomingMessage.headers` holds them (a
 * list where Node keeps one, as for `set-cookie`): the request's own, lent to be read, never
 * written.
 */
export type RequestHeaders = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** One request's span, from its start to its answer. */
export interface RequestSpan {
  /** The trace the request runs in, for its log line; undefined when it runs in none. */
  readonly traceId: string | undefined
  /** The request's own span, for its log line; undefined when it has none. */
  readonly spanId: string | undefined
  /** Runs the handling of the request with this span as the current one, so spans below it are its children. */
  readonly run: (handle: () => Promise<void>) => Promise<void>
  /**
   * Called once, after the answer is settled, with the route that answered, the status, and
   * whether the answer says the service or a dependency failed, as the HTTP adapter judges it for
   * its log line too (a 5xx but 501), so a span's error status and the request's log agree.
   */
  readonly finished: (route: string, status: number, failed: boolean) => void
}

/**
 * Where the HTTP adapter opens a span for each request (OpenTelemetry, say), given its method and
 * its header fields: the tracer reads the caller's trace context from them in whatever format it
 * propagates. Called on the hot path: keep it cheap; if it throws, the request is answered
 * untraced.
 */
export interface RequestTracer {
  readonly requestStarted: (method: string, headers: RequestHeaders) => RequestSpan
}
