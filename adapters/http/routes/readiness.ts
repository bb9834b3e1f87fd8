import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Clock, StorageUnavailable } from '../../../core/index.js'
import { systemClock } from '../../../wire/index.js'

/**
 * Storage's readiness, asked at most once per `maxAgeMs`: requests in between share the probe in
 * flight or reuse its answer, and a request more than `maxAgeMs` after the last probe ended starts
 * a new one. `/readyz` needs no token, so without this any client could make
 * the service send a database command per request.
 */
export const sharedReadiness = (
  checkReady: () => TE.TaskEither<StorageUnavailable, void>,
  maxAgeMs: number,
  { now }: Pick<Clock, 'now'> = systemClock,
): TE.TaskEither<StorageUnavailable, void> => {
  let last: { readonly at: number; readonly answer: ReturnType<TE.TaskEither<StorageUnavailable, void>> } | undefined
  return () => {
    if (last === undefined || now() - last.at >= maxAgeMs) {
      // The answer's age counts from when the probe ends, so a slow probe is not asked again at once.
      const answer = checkReady()().then((result) => {
        if (last?.answer === answer) last = { at: now(), answer }
        return result
      })
      last = { at: Number.POSITIVE_INFINITY, answer }
    }
    return last.answer
  }
}
