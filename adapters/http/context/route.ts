import type * as TE from 'fp-ts/lib/TaskEither.js'
import type Koa from 'koa'
import type { Answer } from './answer.js'
import type { RequestHead } from './request-head.js'
import type { RequestProblem } from '../errors/problems.js'
import type { ServedRequest } from './request-context.js'

/** What a route is given of a request: what admission read of it, and how to read its body. */
export interface RouteRequest {
  /** The head, every field a route reads among it, as it was read once when the request was admitted. */
  readonly head: RequestHead
  /**
   * Reads the body as JSON, giving it up at `deadline` (on the app's `clock.now()` scale;
   * `Infinity` for none): untrusted input, for a codec to parse further.
   */
  readonly readJsonBody: (deadline: number) => TE.TaskEither<RequestProblem, unknown>
}

/**
 * A route: a function of the request to its answer, with no access to Koa. One that awaits
 * nothing answers at once.
 */
export type Route = (request: RouteRequest) => Answer | Promise<Answer>

/**
 * What the request boundary is given to answer a request: the admission and the routes, as one
 * function of Koa's context, the request's head and what the server that admitted the request
 * knows of it.
 */
export type AnswerRequest = (ctx: Koa.Context, head: RequestHead, served: ServedRequest | undefined) => Answer | Promise<Answer>
