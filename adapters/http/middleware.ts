import type Koa from 'koa'
import type { Logger } from './logger.js'
import { malformedRequest, methodNotAllowed, routeNotFound, unexpectedFailure } from './request-problems.js'
import { sendProblem } from './respond.js'

/**
 * The error boundary: anything thrown below becomes a 500 Error document with a generic message.
 * The cause is kept for the request log, never sent.
 */
export const errorBoundary = (): Koa.Middleware => async (ctx, next) => {
  try {
    await next()
  } catch (error) {
    sendProblem(ctx, unexpectedFailure(error))
  }
}

/**
 * One log line per request: method, path, status, duration and the authenticated subject. The
 * query string and the headers are left out, so no credential reaches the log; server-side
 * failures add their cause.
 */
export const requestLog =
  (log: Logger): Koa.Middleware =>
  async (ctx, next) => {
    const started = performance.now()
    await next()
    const fields: Record<string, unknown> = {
      method: ctx.method,
      path: ctx.path,
      status: ctx.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    }
    const subject: unknown = ctx.state['subject']
    if (typeof subject === 'string') fields['subject'] = subject
    const problem = ctx.state['problem'] as { cause?: unknown } | undefined
    // A 503 is an outage being reported, expected while it lasts: a warning with the cause's
    // message, not a stack per request. Any other 5xx is a defect worth its whole stack.
    if (ctx.status === 503) {
      log.warn('request refused: dependency unavailable', { ...fields, cause: messageOf(problem?.cause) })
    } else if (ctx.status >= 500) {
      log.error('request failed', { ...fields, cause: describeCause(problem?.cause) })
    } else {
      log.info('request', fields)
    }
  }

/**
 * Refuses an HTTP/1.1 request without a Host header, and any request with more than one, as RFC
 * 9112 section 3.2 requires (Node keeps the first of several silently).
 */
export const requireHost = (): Koa.Middleware => async (ctx, next) => {
  const hosts = ctx.req.rawHeaders.filter((field, index) => index % 2 === 0 && field.toLowerCase() === 'host').length
  if (hosts > 1 || (ctx.req.httpVersionMajor === 1 && ctx.req.httpVersionMinor >= 1 && ctx.get('Host') === '')) {
    sendProblem(ctx, malformedRequest)
    return
  }
  await next()
}

/** Answers 405 with `Allow` for a path whose other methods are routed elsewhere. */
export const rejectOtherMethods =
  (allowed: ReadonlyArray<string>): Koa.Middleware =>
  async (ctx) => {
    sendProblem(ctx, methodNotAllowed(allowed))
  }

/** Answers 404 for any path no route claimed. */
export const notFound = (): Koa.Middleware => async (ctx) => {
  sendProblem(ctx, routeNotFound)
}

const messageOf = (cause: unknown): unknown => (cause instanceof Error ? cause.message : cause)

const describeCause = (cause: unknown): unknown =>
  cause instanceof Error ? { name: cause.name, message: cause.message, stack: cause.stack } : cause
