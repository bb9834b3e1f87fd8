import { type HttpContext, type HttpMiddleware, routeOf, stampRequestId, sendProblem } from '../context/request-context.js'
import { describeCause, describeCauseBriefly } from '../errors/describe-cause.js'
import { untraced, type HttpObserver, type Logger, type RequestSpan, type RequestTracer, type TraceParent } from '../ports/telemetry.js'
import { traceParentFrom } from './trace-parent.js'
import { unexpectedFailure } from '../errors/problems.js'
import type { Problem } from '../errors/error-response.js'
import { requestLogLine } from '../errors/request-log-line.js'

export interface RequestBoundaryDeps {
  readonly log: Logger
  readonly observer: HttpObserver
  readonly tracer: RequestTracer
}

/**
 * The outermost middleware, and the one error boundary: it gives the request its id (echoed in
 * `X-Request-Id` on every answer), turns anything thrown below into a 500 Error document with a
 * generic message, then writes the one log line of the request and reports it to the observer.
 * The request runs in its span, a child of the caller's `traceparent` when it sent a valid one,
 * and the trace id is on its log line. Logging, observing and ending the span run inside their
 * own guard after the answer is settled: none can change or fail it. A cause reaches the log
 * once, on that line.
 */
export const requestBoundary =
  ({ log, observer, tracer }: RequestBoundaryDeps): HttpMiddleware =>
  async (ctx, next) => {
    const started = performance.now()
    const { headers } = ctx.req
    const requestId = stampRequestId(ctx.req, ctx.res)
    const traceParent = headers.traceparent === undefined ? undefined : traceParentFrom(headers.traceparent)
    const traceState = typeof headers.tracestate === 'string' ? headers.tracestate : undefined
    const span = startSpan(tracer, log, requestId, ctx.req.method ?? '', traceParent, traceState)
    try {
      await span.run(next)
    } catch (error) {
      answerDefect(ctx, requestId, error)
    }
    const ms = performance.now() - started
    const route = routeOf(ctx)
    try {
      observer.requestFinished(route, methodLabel(ctx.req.method ?? ''), ctx.status, ms / 1000)
    } catch (error) {
      logSafely(log, 'error', 'request observer failed', { requestId, cause: describeCause(error) })
    }
    try {
      span.finished(route, ctx.status)
    } catch (error) {
      logSafely(log, 'error', 'request tracer failed', { requestId, cause: describeCause(error) })
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
