import type Router from '@koa/router'
import type { HttpContext } from '../request/request-state.js'
import { routeNotFound } from '../errors/problems.js'
import { sendProblem } from '../errors/respond.js'

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

/** The route pattern that answered a request, as its log line and its metrics name it. */
export const routeOf = (ctx: HttpContext): string => ctx.state.route ?? ctx.routerPath ?? 'unmatched'
