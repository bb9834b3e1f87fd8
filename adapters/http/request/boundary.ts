import { setImmediate as nextTurn } from 'node:timers/promises'
import { type HttpContext, type HttpMiddleware, routeOf, stampRequestId, sendProblem } from '../context/request-context.js'
import { describeCause, describeCauseBriefly } from '../errors/describe-cause.js'
import { untraced, type HttpObserver, type Logger, type RequestSpan, type RequestTracer, type TraceParent } from '../ports/telemetry.js'
import { traceParentFrom } from './trace-parent.js'
import { unexpectedFailure } from '../errors/problems.js'
import type { Problem } from '../errors/error-response.js'

export interface RequestBoundaryDeps {
  readonly log: Logger
  /** Told of each finished request; none is told when absent, at no cost per request. */
  readonly observer: HttpObserver | undefined
  /** Opens each request's span; none is opened when absent, at no cost per request. */
  readonly tracer: RequestTracer | undefined
  /** Whether the service is draining before it stops: every answer then closes its connection. */
  readonly draining: () => boolean
}

/**
 * The outermost middleware, and the one error boundary: it gives the request its id (echoed in
 * `X-Request-Id` on every answer), turns anything thrown below into a 500 Error document with a
 * generic message, decides whether the answer keeps its connection, then writes the one log line
 * of the request and reports it to the observer.
 * The request runs in its span, a child of the caller's `traceparent` when it sent a valid one,
 * and the trace id is on its log line. Logging, observing and ending the span run inside their
 * own guard after the answer is settled: none can change or fail it. A cause reaches the log
 * once, on that line.
 */
export const requestBoundary =
  ({ log, observer, tracer, draining }: RequestBoundaryDeps): HttpMiddleware =>
  async (ctx, next) => {
    const started = performance.now()
    const { headers } = ctx.req
    const requestId = stampRequestId(ctx.req, ctx.res)
    const traceParent = headers.traceparent === undefined ? undefined : traceParentFrom(headers.traceparent)
    const traceState = typeof headers.tracestate === 'string' ? headers.tracestate : undefined
    const span = tracer === undefined ? untraced : startSpan(tracer, log, requestId, ctx.req.method ?? '', traceParent, traceState)
    try {
      await (span === untraced ? next() : span.run(next))
    } catch (error) {
      answerDefect(ctx, requestId, error)
    }
    const closing = closeConnectionWhenDone(ctx, draining)
    if (closing !== undefined) await closing
    const ms = performance.now() - started
    const route = routeOf(ctx)
    if (observer !== undefined) {
      try {
        observer.requestFinished(route, methodLabel(ctx.req.method ?? ''), ctx.status, ms / 1000)
      } catch (error) {
        logSafely(log, 'error', 'request observer failed', { requestId, cause: describeCause(error) })
      }
    }
    if (span !== untraced) {
      try {
        span.finished(route, ctx.status)
      } catch (error) {
        logSafely(log, 'error', 'request tracer failed', { requestId, cause: describeCause(error) })
      }
    }
    writeRequestLine(log, ctx, requestId, route, ms, span.traceId ?? traceParent?.traceId, span.spanId)
  }

// A tracer that throws leaves the request untraced, and answered as it would have been.
const startSpan = (
  tracer: RequestTracer,
  log: Logger,
  requestId: string,
  method: string,
  parent: TraceParent | undefined,
  traceState: string | undefined,
): RequestSpan => {
  try {
    return tracer.requestStarted(method, parent, traceState)
  } catch (error) {
    logSafely(log, 'error', 'request tracer failed', { requestId, cause: describeCause(error) })
    return untraced
  }
}

const KEPT_ON_DEFECT = /^(connection|vary|access-control-.*)$/

// Headers set before the throw (a WWW-Authenticate, say) belong to an answer that is not sent.
const answerDefect = (ctx: HttpContext, requestId: string, error: unknown): void => {
  if (ctx.headerSent) return
  // Except Connection: a close decided for the connection (a body left unread, a drain) stands;
  // and the CORS headers, which say who may read whatever answer goes out, this 500 included.
  for (const name of ctx.res.getHeaderNames()) if (!KEPT_ON_DEFECT.test(name)) ctx.res.removeHeader(name)
  ctx.set('X-Request-Id', requestId)
  sendProblem(ctx, unexpectedFailure(error))
}

const writeRequestLine = (
  log: Logger,
  ctx: HttpContext,
  requestId: string,
  route: string,
  ms: number,
  traceId: string | undefined,
  spanId: string | undefined,
): void => {
  const fields: Record<string, unknown> = {
    requestId,
    method: ctx.method,
    route,
    status: ctx.status,
    ms: Math.round(ms * 10) / 10,
  }
  if (traceId !== undefined) fields['traceId'] = traceId
  if (spanId !== undefined) fields['spanId'] = spanId
  const { subject, problem } = ctx.state
  if (subject !== undefined) fields['subject'] = subject
  const line = requestLogLine(problem, ctx.status)
  if (line.cause === 'brief') fields['cause'] = describeCauseBriefly(causeOf(problem))
  if (line.cause === 'whole') fields['cause'] = describeCause(causeOf(problem))
  logSafely(log, line.level, line.message, fields)
}

/** How the request log tells of an answer: its level, its words, and how much of the cause it shows. */
interface RequestLogLine {
  readonly level: 'info' | 'warn' | 'error'
  readonly message: string
  /** `brief`: the cause's message; `whole`: its whole description, stack included. */
  readonly cause?: 'brief' | 'whole'
}

/**
 * The one place where an answer's severity is decided, beside the one that gives it its status. An
 * outage being reported (503) is expected while it lasts: a warning with the cause's message, not
 * a stack per request. Storage refusing the service's configuration is an error an operator must
 * correct, named with its cause. A store that is full (507) is the bound doing its work. A token
 * signed with a key nobody publishes is a refusal (401) like any other, named apart so that a
 * forgery or a missed rotation can be told from a bad token. Any other 5xx is a defect worth its
 * whole description.
 */
const requestLogLine = (problem: Problem | undefined, status: number): RequestLogLine => {
  switch (problem?._tag) {
    case 'ShuttingDown':
      return { level: 'info', message: 'request refused: shutting down' }
    case 'DecodersBusy':
      return { level: 'warn', message: 'request refused: compressed bodies waiting too long for a decoder' }
    case 'DeadlinePassed':
      return { level: 'warn', message: 'request refused: its body was not in by its deadline' }
    case 'StorageUnavailable':
      return problem.configurationFault === undefined
        ? { level: 'warn', message: 'request refused: dependency unavailable', cause: 'brief' }
        : { level: 'error', message: `request refused: storage configuration fault: ${problem.configurationFault}`, cause: 'brief' }
    case 'AuthenticationUnavailable':
      return { level: 'warn', message: 'request refused: dependency unavailable', cause: 'brief' }
    case 'Unauthenticated':
      // Said briefly: the cause names only an excerpt of what the client sent, never all of it.
      return problem.reason === 'UnknownKey'
        ? { level: 'info', message: 'request refused: unknown signing key', cause: 'brief' }
        : { level: 'info', message: 'request' }
    case 'StorageFull':
      return { level: 'warn', message: 'request refused: storage full' }
    default:
      return status >= 500 ? { level: 'error', message: 'request failed', cause: 'whole' } : { level: 'info', message: 'request' }
  }
}

const causeOf = (problem: Problem | undefined): unknown => (problem !== undefined && 'cause' in problem ? problem.cause : undefined)

// A logger that throws loses its line; the request keeps its answer. One plain line says so, in
// case the failure was in the fields and not in the logger.
const logSafely = (log: Logger, level: keyof Logger, message: string, fields: Readonly<Record<string, unknown>>): void => {
  try {
    log[level](message, fields)
  } catch (error) {
    try {
      log.error('log line lost: the logger failed', { requestId: fields['requestId'], cause: describeCause(error) })
    } catch {
      // Nowhere left to report to.
    }
  }
}

const STANDARD_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT'])

const methodLabel = (method: string): string => (STANDARD_METHODS.has(method) ? method : 'OTHER')

/**
 * Ends the connection after the response, with `Connection: close`, when keeping it would cost
 * more than it saves:
 * - the request's body has not all arrived: it was refused before its body was read (401, 403,
 *   413, 415...), and keeping the connection would mean reading, for as long as the client takes,
 *   a body that will be thrown away;
 * - the service is draining before it stops: each kept-alive client learns from its last
 *   response that the connection ends, instead of finding it closed under its next request.
 * Called once the request has been answered. Most requests are complete by then: they get no
 * promise to wait for, and pay no extra turn of the event loop.
 */
const closeConnectionWhenDone = (ctx: HttpContext, draining: () => boolean): Promise<void> | undefined => {
  if (draining()) {
    ctx.set('Connection', 'close')
    return undefined
  }
  return ctx.req.complete ? undefined : closeUnlessArrived(ctx)
}

// Node marks a request complete one turn of the event loop after parsing its last byte, so a
// body sent along with the headers but refused at once is given that turn before it counts as
// still arriving.
const closeUnlessArrived = async (ctx: HttpContext): Promise<void> => {
  await nextTurn()
  if (!ctx.req.complete) ctx.set('Connection', 'close')
}
