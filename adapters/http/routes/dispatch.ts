import { METHODS } from 'node:http'
import type Koa from 'koa'
import type { Answer } from '../context/answer.js'
import type { Route, RouteRequest } from '../context/route.js'
import { methodNotAllowed, routeNotFound } from '../errors/problems.js'
import { Router } from '../peers/peers.js'

/**
 * Whether a base path is a plain prefix such as `/api/v1`: segments of RFC 3986 unreserved
 * characters, no trailing slash ('' for none). The router reads paths as patterns (`:name`, `*`,
 * `(...)`), so anything else could match paths it should not, or fail when the app is built.
 *
 * @example
 * ```ts
 * import { isLiteralBasePath } from 'plant-store/adapters/http'
 *
 * isLiteralBasePath('/api/v1') // true
 * isLiteralBasePath('/api/:version') // false: the router would read it as a pattern
 * ```
 */
export const isLiteralBasePath = (path: string): boolean => /^(\/[A-Za-z0-9\-._~]+)*$/.test(path)

/** A path, the methods it serves, and the route that serves them; the path names the route. */
export interface PathRoute {
  readonly path: string
  readonly methods: ReadonlyArray<string>
  readonly route: Route
}

/** Sends each request to its route, and names the route a request took. */
export interface Dispatch {
  readonly answer: (ctx: Koa.Context, request: RouteRequest) => Promise<Answer>
  /** The path of the route the request was sent to, or `unmatched`. */
  readonly routeOf: (ctx: Koa.Context) => string
}

/**
 * Dispatches requests by @koa/router, each path to its route. Paths match exactly as written:
 * /PLANTS and /plants/ are other paths, answered 404. Every other method of a path answers 405
 * with `Allow`.
 */
export const dispatch = (paths: ReadonlyArray<PathRoute>): Dispatch => {
  const router = new Router({ sensitive: true, strict: true })
  // The route the router chose for a request, for the dispatch to run once the router returns:
  // the router's handlers are given only the context.
  const chosen = new WeakMap<Koa.Context, PathRoute>()
  for (const served of paths) {
    const { path, methods } = served
    router.register(path, [...methods], (ctx) => void chosen.set(ctx, served))
    // Registered for those methods only: an `all` route would also match the served methods.
    const refusal: PathRoute = { path, methods: [], route: refuseWith({ _tag: 'Problem', problem: methodNotAllowed(methods), route: path }) }
    router.register(
      path,
      METHODS.filter((method) => !methods.includes(method)),
      (ctx) => void chosen.set(ctx, refusal),
    )
  }
  const routes = router.routes()
  return {
    answer: async (ctx, request) => {
      await routes(ctx as Parameters<typeof routes>[0], nothingMatched)
      const route = chosen.get(ctx)
      return route === undefined ? NOT_FOUND : route.route(request)
    },
    routeOf: (ctx) => chosen.get(ctx)?.path ?? 'unmatched',
  }
}

const refuseWith =
  (answer: Answer): Route =>
  () =>
    answer

const nothingMatched = (): Promise<void> => Promise.resolve()

const NOT_FOUND: Answer = { _tag: 'Problem', problem: routeNotFound }
