/**
 * Runs `work` and gives up when `ms` have passed, at `deadline` (a `performance.now()` time),
 * rejecting with a deadline error. The driver's own per-operation timeout (`timeoutMS`) is a
 * no-op in driver 7, so the bound is kept here; the signal tells `work` to stop: the driver sends
 * nothing more (it checks the signal before writing a command), gives up a server selection or a
 * wait for a connection under way, and closes a socket whose reply has not come. What it had
 * already written may still be applied after the deadline: a server does not stop a write whose
 * client has gone. Not all of the driver's waits end at the abort (its back-off before retrying
 * an overloaded server does not listen), so whatever holds a resource for the call releases it at
 * the deadline itself (see insert-batches.ts).
 */
export const withinDeadline = <A>(ms: number, work: (signal: AbortSignal, deadline: number) => Promise<A>): Promise<A> =>
  // One timer both aborts the signal and rejects: no listener of our own on the signal and no
  // race, as this runs on every storage call.
  new Promise<A>((resolve, reject) => {
    const controller = new AbortController()
    const deadline = performance.now() + ms
    const timer = setTimeout(() => {
      const reason = deadlineExceeded(ms)
      controller.abort(reason)
      reject(reason)
    }, ms)
    work(controller.signal, deadline).then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })

/** Whether an error is the one `withinDeadline` rejects with when time is up. */
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

const deadlineExceeded = (ms: number): Error => new StorageDeadlineExceeded(`MongoDB did not answer within ${ms} ms`)

/** The deadline error of a call whose caller had no time left for it: nothing was sent. */
export const noTimeLeft = (): Error => new StorageDeadlineExceeded('the caller had no time left to wait for MongoDB; nothing was sent')
