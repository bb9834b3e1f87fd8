/**
 * Runs `work` and gives up when `ms` have passed, rejecting with a deadline error. The driver's
 * own per-operation timeout (`timeoutMS`) is a no-op in driver 7, so the bound is kept here; the
 * signal tells `work` to stop, and the driver's socket timeout ends what cannot be told.
 */
export const withinDeadline = async <A>(ms: number, work: (signal: AbortSignal) => Promise<A>): Promise<A> => {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(deadlineExceeded(ms)), ms)
  const expired = new Promise<never>((_resolve, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true })
  })
  try {
    return await Promise.race([work(controller.signal), expired])
  } finally {
    clearTimeout(timer)
  }
}

/** Whether an error is the one `withinDeadline` rejects with when time is up. */
export const isDeadlineExceeded = (error: unknown): boolean =>
  error instanceof Error && error.name === DEADLINE_EXCEEDED

const DEADLINE_EXCEEDED = 'StorageDeadlineExceeded'

const deadlineExceeded = (ms: number): Error =>
  Object.assign(new Error(`MongoDB did not answer within ${ms} ms`), { name: DEADLINE_EXCEEDED })
