import type Koa from 'koa'
import { malformedRequest, methodNotAllowed, routeNotFound } from './request-problems.js'
import { sendProblem } from './respond.js'

/** Refuses an HTTP/1.1 request without a Host header, as RFC 9112 section 3.2 requires. */
export const requireHost = (): Koa.Middleware => async (ctx, next) => {
  if (ctx.req.httpVersionMajor === 1 && ctx.req.httpVersionMinor >= 1 && ctx.get('Host') === '') {
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
