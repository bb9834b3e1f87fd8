import * as E from 'fp-ts/lib/Either.js'
import { type HttpMiddleware, sendJson, sendProblem } from '../context/request-context.js'
import type { PlantStore } from '../../../core/index.js'
import { shuttingDown } from '../errors/problems.js'
import { sharedReadiness } from './readiness.js'

/** `/healthz`: answers while the process can answer at all. */
export const healthz = (): HttpMiddleware => async (ctx) => sendJson(ctx, 200, { status: 'alive' })

/**
 * `/readyz`: answers 200 only while storage does, so no traffic goes where it would get 503, and
 * 503 from the moment the service starts draining, so load balancers stop sending it requests.
 * Storage is asked at most once per `readinessMaxAgeMs`, however many probes arrive.
 */
export const readyz = (plantStore: PlantStore, draining: () => boolean, readinessMaxAgeMs: number): HttpMiddleware => {
  const checkReady = sharedReadiness(plantStore.checkReady, readinessMaxAgeMs)
  return async (ctx) => {
    if (draining()) {
      sendProblem(ctx, shuttingDown)
      return
    }
    const ready = await checkReady()
    if (E.isLeft(ready)) sendProblem(ctx, ready.left)
    else sendJson(ctx, 200, { status: 'ready' })
  }
}
