import * as E from 'fp-ts/lib/Either.js'
import type { Answer } from '../context/answer.js'
import type { RouteRequest } from '../context/route.js'
import { authenticate, createPlant, invalidInput, type Authenticator, type Clock, type CreatePlantError, type PlantStore } from '../../../core/index.js'
import { CREATE_PLANT, systemClock } from '../../../wire/index.js'
import { bearerTokenOf } from '../context/request-head.js'

export interface CreatePlantRouteDeps {
  readonly plantStore: PlantStore
  readonly authenticator: Authenticator
  /** The route's name in the log line and the metrics: its path pattern. */
  readonly route: string
  /**
   * The longest from the request's headers to its answer: every stage after the headers (the
   * body's arrival, its decode and parse, storage) runs within what the stages before it left,
   * and one with nothing left is not started.
   */
  readonly answerWithinMs?: number
  /** Where the deadline's time is read; `systemClock` when absent. */
  readonly clock?: Clock
}

/**
 * POST /plants. The token is checked before a byte of the body is read, so an unauthenticated
 * request is refused without the service paying for its body. Each step is a TaskEither run in
 * turn, and the first Left is the answer; every answer after the token was accepted names its
 * subject.
 */
export const createPlantRoute = ({
  plantStore,
  authenticator,
  route,
  answerWithinMs,
  clock = systemClock,
}: CreatePlantRouteDeps): ((request: RouteRequest) => Promise<Answer>) => {
  const authenticateToken = authenticate({ authenticator })
  const create = createPlant({ plantStore })
  return async ({ head, readJsonBody }) => {
    const deadline = answerWithinMs === undefined ? Infinity : clock.now() + answerWithinMs
    const token = bearerTokenOf(head)
    if (E.isLeft(token)) return { _tag: 'Problem', problem: token.left, route }
    const principal = await authenticateToken(token.right)()
    if (E.isLeft(principal)) return { _tag: 'Problem', problem: principal.left, route }
    const { subject } = principal.right
    const body = await readJsonBody(deadline)()
    if (E.isLeft(body)) return { _tag: 'Problem', problem: body.left, route, subject }
    const options = answerWithinMs === undefined ? undefined : { withinMs: deadline - clock.now() }
    const plant = await create(principal.right, body.right, options)()
    return E.isLeft(plant)
      ? { _tag: 'Problem', problem: inJsonTerms(plant.left, body.right), route, subject }
      : { _tag: 'Plant', plant: plant.right, route, subject }
  }
}

// The client sent JSON text: a field it got wrong is named in JSON's terms, with what it sent.
const inJsonTerms = (error: CreatePlantError, sent: unknown): CreatePlantError =>
  error._tag === 'InvalidInput' ? invalidInput(CREATE_PLANT.request.violations(sent, error.violations)) : error
