import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type Koa from 'koa'
import { authenticate, createPlant, type Authenticator, type PlantStore } from '../../core/index.js'
import { bearerTokenFrom } from './bearer-credentials.js'
import type { RequestProblem } from './request-problems.js'
import { sendJson, sendProblem } from './respond.js'

export interface CreatePlantRouteDeps {
  readonly plantStore: PlantStore
  readonly authenticator: Authenticator
  readonly readJsonBody: (ctx: Koa.Context) => TE.TaskEither<RequestProblem, unknown>
}

/**
 * POST /plants. The token is checked before a byte of the body is read, so an unauthenticated
 * request is refused without the service paying for its body.
 */
export const createPlantRoute = ({ plantStore, authenticator, readJsonBody }: CreatePlantRouteDeps): Koa.Middleware => {
  const authenticateToken = authenticate({ authenticator })
  const create = createPlant({ plantStore })
  return async (ctx) => {
    const outcome = await pipe(
      TE.fromEither(bearerTokenFrom(ctx.get('Authorization') || undefined)),
      TE.flatMap(authenticateToken),
      TE.tapIO((principal) => () => {
        ctx.state['subject'] = principal.subject
      }),
      TE.flatMap((principal) =>
        pipe(
          readJsonBody(ctx),
          TE.flatMap((body) => create(principal, body)),
        ),
      ),
    )()
    pipe(
      outcome,
      E.match(
        (problem) => sendProblem(ctx, problem),
        (plant) => sendJson(ctx, 200, plant),
      ),
    )
  }
}
