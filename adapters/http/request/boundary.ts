import type { HttpContext, HttpMiddleware } from './request-state.js'
import { describeCause, describeCauseBriefly } from '../errors/describe-cause.js'
import type { Logger } from '../ports/logger.js'
import type { HttpObserver } from '../ports/http-observer.js'
import { requestIdFrom } from './request-id.js'
import { rememberRequestId } from '../server/parser-refusals.js'
import { unexpectedFailure } from '../errors/problems.js'
import { sendProblem } from '../errors/respond.js'
import type { Problem } from '../errors/error-response.js'
import { requestLogLine } from '../errors/request-log-line.js'
import { routeOf } from '../routes/dispatch.js'

export interface RequestBoundaryDeps {
  readonly log: Logger
  readonly observer: HttpObserver
}

/**
 * The outermost middleware, and the one error boundary: it gives the request its id (echoed in
 * `X-Request-Id` on every answer), turns anything thrown below into a 500 Error document with a
 * generic message, then writes the one log line of the request and reports it to the observer.
 * Logging and observing run inside their own guard after the answer is settled: neither can
 * change or fail it. A cause reaches the log once, on that line.
 */
export const requestBoundary =
  ({ log, observer }: RequestBoundaryDeps): HttpMiddleware =>
  async (ctx, next) => {
    const started = performance.now()
    const sent = ctx.req.headers['x-request-id']
    const requestId = requestIdFrom(typeof sent === 'string' ? sent : undefined)
    ctx.res.setHeader('X-Request-Id', requestId)
    // An answer the server writes on the socket by itself (a 408 for a body too slow) is this
    // request's answer, and carries its id.
    const forgetRequestId = rememberRequestId(ctx.req.socket, requestId)
    try {
      await next()
    } catch (error) {
      answerDefect(ctx, requestId, error)
    } finally {
      forgetRequestId()
    }
    const ms = performance.now() - started
    const route = routeOf(ctx)
    try {
      observer.requestFinished(route, methodLabel(ctx.req.method ?? ''), ctx.status, ms / 1000)
    } catch (error) {
      logSafely(log, 'error', 'request observer failed', { requestId, cause: describeCause(error) })
    }
    writeRequestLine(log, ctx, requestId, route, ms)
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

const writeRequestLine = (log: Logger, ctx: HttpContext, requestId: string, route: string, ms: number): void => {
  const fields: Record<string, unknown> = {
    requestId,
    method: ctx.method,
    route,
    status: ctx.status,
    ms: Math.round(ms * 10) / 10,
  }
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
