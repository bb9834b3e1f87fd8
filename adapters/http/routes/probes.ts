import * as E from 'fp-ts/lib/Either.js'
import { jsonRepresentation, type Answer } from '../context/answer.js'
import type { Clock, PlantStore } from '../../../core/index.js'
import { shuttingDown } from '../errors/problems.js'
import { systemClock } from '../../../wire/index.js'
import { sharedReadiness } from './readiness.js'

/** `/healthz`: answers while the process can answer at all. */
export const healthz = (route: string): (() => Answer) => {
  const alive = jsonRepresentation(route, 200, { status: 'alive' })
  return () => alive
}

/**
 * `/readyz`: answers 200 only while storage does, so no traffic goes where it would get 503, and
 * 503 from the moment the service starts draining, so load balancers stop sending it requests.
 * Storage is asked at most once per `readinessMaxAgeMs`, however many probes arrive.
 */
export const readyz = (
  route: string,
  plantStore: PlantStore,
  draining: () => boolean,
  readinessMaxAgeMs: number,
  clock: Clock = systemClock,
): (() => Answer | Promise<Answer>) => {
  const checkReady = sharedReadiness(plantStore.checkReady, readinessMaxAgeMs, clock)
  const ready = jsonRepresentation(route, 200, { status: 'ready' })
  const refused: Answer = { _tag: 'Problem', problem: shuttingDown, route }
  return async () => {
    if (draining()) return refused
    const checked = await checkReady()
    return E.isLeft(checked) ? { _tag: 'Problem', problem: checked.left, route } : ready
  }
}
