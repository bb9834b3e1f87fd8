/**
 * Runs `work` and gives up when `ms` have passed, at `deadline` (a `performance.now()` time),
 * rejecting with a deadline error. The driver's own per-operation timeout (`timeoutMS`) is a
 * no-op in driver 7, so the bound is kept here; the signal tells `work` to stop: the driver gives
 * up selecting a server or waiting for a connection, sends nothing more, and closes a socket whose
 * reply has not come.
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
