import { METHODS } from 'node:http'
import type Router from '@koa/router'
import { type HttpContext, type HttpMiddleware, sendProblem } from '../context/request-context.js'
import { methodNotAllowed, routeNotFound } from '../errors/problems.js'

/** Answers a request: a route's handler, or the whole routing, which answers 404 when no route claims it. */
export type RouteRequest = (ctx: HttpContext) => Promise<void>

/** The one route the service exists for, matched ahead of the router. */
export interface Operation {
  readonly method: string
  /** The request target it answers exactly: a literal path, without a query. */
  readonly path: string
  readonly handler: RouteRequest
}

/**
 * Sends a request to its route. The operation is matched first, by its method and its exact
 * request target, ahead of the router. The router holds the
 * operation too, so a target the exact match does not take (one with a query, say) is answered
 * by the same handler, and the two ways in cannot disagree.
 */
export const routeRequests = (operation: Operation, router: Router): RouteRequest => {
  const routes = router.routes()
  return (ctx) => {
    if (ctx.req.url === operation.path && ctx.req.method === operation.method) {
      ctx.state.route = operation.path
      return operation.handler(ctx)
    }
    return routes(ctx as Parameters<typeof routes>[0], async () => sendProblem(ctx, routeNotFound)) as Promise<void>
  }
}

/**
 * Whether a base path is a plain prefix such as `/api/v1`: segments of RFC 3986 unreserved
 * characters, no trailing slash ('' for none). The router reads paths as patterns (`:name`, `*`,
 * `(...)`), so anything else could match paths it should not, or fail when the app is built.
 */
export const isLiteralBasePath = (path: string): boolean => /^(\/[A-Za-z0-9\-._~]+)*$/.test(path)

/**
 * Every other method of a path answers 405 with `Allow`, from a route registered for those
 * methods only: an `all` route would also match the served method.
 */
export const refuseOtherMethods = (router: Router, path: string, allowed: ReadonlyArray<string>): void => {
  router.register(
    path,
    METHODS.filter((method) => !allowed.includes(method)),
    rejectOtherMethods(allowed),
  )
}

const rejectOtherMethods =
  (allowed: ReadonlyArray<string>): HttpMiddleware =>
  async (ctx) => {
    sendProblem(ctx, methodNotAllowed(allowed))
  }
