import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { type HttpContext, sendJson, sendProblem } from '../context/request-context.js'
import { authenticate, createPlant, invalidInput, type Authenticator, type CreatePlantError, type PlantStore } from '../../../core/index.js'
import { CREATE_PLANT } from '../../../wire/index.js'
import { bearerTokenOf, type RequestHead } from '../context/request-head.js'
import type { RequestProblem } from '../errors/problems.js'

export interface CreatePlantRouteDeps {
  readonly plantStore: PlantStore
  readonly authenticator: Authenticator
  /** Reads the body, giving it up at `deadline` (on `performance.now()`'s clock) when there is one. */
  readonly readJsonBody: (ctx: HttpContext, head: RequestHead, deadline?: number) => TE.TaskEither<RequestProblem, unknown>
  /**
   * The longest from the request's headers to its answer: every stage after the headers (the
   * body's arrival, its decode and parse, storage) runs within what the stages before it left,
   * and one with nothing left is not started.
   */
  readonly answerWithinMs?: number
}

/**
 * POST /plants. The token is checked before a byte of the body is read, so an unauthenticated
 * request is refused without the service paying for its body. Each step is a TaskEither run in
 * turn, and the first Left is the answer.
 */
export const createPlantRoute = ({
  plantStore,
  authenticator,
  readJsonBody,
  answerWithinMs,
}: CreatePlantRouteDeps): ((ctx: HttpContext) => Promise<void>) => {
  const authenticateToken = authenticate({ authenticator })
  const create = createPlant({ plantStore })
  return async (ctx) => {
    const deadline = answerWithinMs === undefined ? Infinity : performance.now() + answerWithinMs
    // Read as the request was admitted, which every route comes after.
    const { head } = ctx.state
    if (head === undefined) throw new Error('POST /plants was routed before its head was read')
    const token = bearerTokenOf(head, ctx.req.headers.authorization)
    if (E.isLeft(token)) return sendProblem(ctx, token.left)
    const principal = await authenticateToken(token.right)()
    if (E.isLeft(principal)) return sendProblem(ctx, principal.left)
    ctx.state.subject = principal.right.subject
    const body = await readJsonBody(ctx, head, deadline)()
    if (E.isLeft(body)) return sendProblem(ctx, body.left)
    const options = answerWithinMs === undefined ? undefined : { withinMs: deadline - performance.now() }
    const plant = await create(principal.right, body.right, options)()
    return E.isLeft(plant) ? sendProblem(ctx, inJsonTerms(plant.left, body.right)) : sendJson(ctx, 200, plant.right)
  }
}

// The client sent JSON text: a field it got wrong is named in JSON's terms, with what it sent.
const inJsonTerms = (error: CreatePlantError, sent: unknown): CreatePlantError =>
  error._tag === 'InvalidInput' ? invalidInput(CREATE_PLANT.request.violations(sent, error.violations)) : error
