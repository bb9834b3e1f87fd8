import type { HttpMiddleware } from '../request/request-state.js'
import { methodNotAllowed } from '../errors/problems.js'
import { sendProblem } from '../errors/respond.js'

/** Answers 405 with `Allow` for a path whose other methods are routed elsewhere. */
export const rejectOtherMethods =
  (allowed: ReadonlyArray<string>): HttpMiddleware =>
  async (ctx) => {
    sendProblem(ctx, methodNotAllowed(allowed))
  }
