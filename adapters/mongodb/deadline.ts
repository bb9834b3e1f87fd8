/**
 * Runs `work` and gives up when `ms` have passed, rejecting with a deadline error. The driver's
 * own per-operation timeout (`timeoutMS`) is a no-op in driver 7, so the bound is kept here; the
 * signal tells `work` to stop: the driver gives up selecting a server or waiting for a connection,
 * sends nothing more, and closes a socket whose reply has not come.
 */
export const withinDeadline = <A>(ms: number, work: (signal: AbortSignal) => Promise<A>): Promise<A> =>
  // One timer both aborts the signal and rejects: no listener of our own on the signal and no
  // race, as this runs on every storage call.
  new Promise<A>((resolve, reject) => {
    const controller = new AbortController()
    const timer = setTimeout(() => {
      const reason = deadlineExceeded(ms)
      controller.abort(reason)
      reject(reason)
    }, ms)
    work(controller.signal).then(
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

const deadlineExceeded = (ms: number): Error =>
  Object.assign(new Error(`MongoDB did not answer within ${ms} ms`), { name: DEADLINE_EXCEEDED })
