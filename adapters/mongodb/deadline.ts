import type { Clock } from '../../core/index.js'

/**
 * Runs `work` and gives up at `deadline` (a Clock.now() time), rejecting with a deadline error.
 * The driver's own per-operation timeout (`timeoutMS`) is a no-op in driver 7, so the bound is
 * kept here; the signal tells `work` to stop: the driver sends nothing more (it checks the signal
 * before writing a command), gives up a server selection or a wait for a connection under way,
 * and closes a socket whose reply has not come. What it had already written may still be applied
 * after the deadline: a server does not stop a write whose client has gone. For the work of a
 * call beside its insert (connecting, reading a taken id's plant, readiness); an insert's own
 * life is insert-batches.ts's.
 */
export const withinDeadline = <A>(clock: Clock, deadline: number, work: (signal: AbortSignal) => Promise<A>): Promise<A> =>
  // One timer both aborts the signal and rejects: no listener of our own on the signal and no race.
  new Promise<A>((resolve, reject) => {
    const controller = new AbortController()
    const cancel = clock.setTimer(deadline - clock.now(), () => {
      const reason = deadlinePassed()
      controller.abort(reason)
      reject(reason)
    })
    work(controller.signal).then(
      (value) => {
        cancel()
        resolve(value)
      },
      (error: unknown) => {
        cancel()
        reject(error)
      },
    )
  })

/** Whether an error is the one a storage call is answered with when its deadline passes first. */
export const isDeadlineExceeded = (error: unknown): boolean =>
  error instanceof Error && error.name === DEADLINE_EXCEEDED

const DEADLINE_EXCEEDED = 'StorageDeadlineExceeded'

// The name is a getter, as the driver's own errors have it: the driver copies an abort reason's
// enumerable fields onto the error it wraps it in (a bulk write's), where `name` cannot be set.
class StorageDeadlineExceeded extends Error {
  override get name(): string {
    return DEADLINE_EXCEEDED
  }
}

/** The error of a storage call whose deadline passed before MongoDB answered for it. */
export const deadlinePassed = (): Error => new StorageDeadlineExceeded('MongoDB did not answer within the call\'s deadline')

/** The deadline error of a call whose caller had no time left for it: nothing was sent. */
export const noTimeLeft = (): Error => new StorageDeadlineExceeded('the caller had no time left to wait for MongoDB; nothing was sent')
