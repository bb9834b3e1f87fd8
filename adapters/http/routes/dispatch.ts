import { METHODS } from 'node:http'
import type Router from '@koa/router'
import { type HttpMiddleware, sendProblem } from '../context/request-context.js'
import { methodNotAllowed } from '../errors/problems.js'

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
