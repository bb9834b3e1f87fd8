import type { Either } from 'fp-ts/lib/Either.js'
import type { TaskEither } from 'fp-ts/lib/TaskEither.js'
import type { Clock } from '../../core/index.js'

/**
 * The same task, telling `settled` how it ended (its answer, or `undefined` when it rejected: a
 * defect) and how long it took, in seconds: the clock's time from the task's start to its
 * settling. The answer, or the rejection, passes through unchanged.
 */
export const timed =
  <L, R>(task: TaskEither<L, R>, settled: (answer: Either<L, R> | undefined, seconds: number) => void, clock: Clock): TaskEither<L, R> =>
  () => {
    const started = clock.now()
    return task().then(
      (answer) => {
        settled(answer, (clock.now() - started) / 1000)
        return answer
      },
      (defect: unknown) => {
        settled(undefined, (clock.now() - started) / 1000)
        throw defect
      },
    )
  }

/** The same task, telling `settled` how it ended, with no clock read: for a count without latency. */
export const counted =
  <L, R>(task: TaskEither<L, R>, settled: (answer: Either<L, R> | undefined) => void): TaskEither<L, R> =>
  () =>
    task().then(
      (answer) => {
        settled(answer)
        return answer
      },
      (defect: unknown) => {
        settled(undefined)
        throw defect
      },
    )
