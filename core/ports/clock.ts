/**
 * Time as every timed policy reads it. Deadlines, batching windows, time-outs, eviction, back-off
 * and cool-downs take a Clock rather than the process's own timers, so a test drives a policy on
 * virtual time and it gives the same answer at any machine load. The service passes the system
 * clock (`systemClock`, from the wire) to every adapter it composes.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale, for durations and deadlines: `performance.now()` on the system clock. */
  readonly now: () => number
  /** Milliseconds since the Unix epoch, for timestamps and token expiry: `Date.now()` on the system clock. */
  readonly epochMs: () => number
  /**
   * Calls `run` once, `ms` from now (in a later task, never synchronously; at the next one for
   * `ms` <= 0). The function returned cancels it, and does nothing once it ran. A timer never
   * holds the process open on its own: what it times (a socket, a pending call) does.
   */
  readonly setTimer: (ms: number, run: () => void) => Cancel
}

/** Cancels a timer set on a Clock. */
export type Cancel = () => void

/**
 * What `delay` reads of an abort signal. Node's and the DOM's `AbortSignal` are one; declared here
 * so the core's types name no library of the platform's (a core-only consumer has no @types/node).
 */
export interface AbortSignalLike {
  readonly aborted: boolean
  readonly reason?: unknown
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void
  removeEventListener(type: 'abort', listener: () => void): void
}

/**
 * A promise that settles `ms` from now on `clock`: a wait on the clock's timers. Given a signal, it
 * rejects with the signal's reason once the signal is aborted, and its timer is cancelled.
 *
 * @example
 * ```ts
 * import { delay, type Clock } from 'plant-store/core'
 *
 * const clock: Clock = {
 *   now: () => performance.now(),
 *   epochMs: () => Date.now(),
 *   setTimer: (ms, run) => {
 *     const timer = setTimeout(run, ms)
 *     timer.unref()
 *     return () => clearTimeout(timer)
 *   },
 * }
 * await delay(clock, 250)
 * ```
 */
export const delay = (clock: Clock, ms: number, signal?: AbortSignalLike): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason)
      return
    }
    const onAbort = (): void => {
      cancel()
      reject(signal?.reason)
    }
    const cancel = clock.setTimer(ms, () => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    })
    signal?.addEventListener('abort', onAbort, { once: true })
  })

/**
 * Calls `run` every `ms` on `clock`, each call `ms` after the last began, until the function
 * returned is called.
 *
 * @example
 * ```ts
 * import { repeatEvery, type Clock } from 'plant-store/core'
 *
 * const clock: Clock = {
 *   now: () => performance.now(),
 *   epochMs: () => Date.now(),
 *   setTimer: (ms, run) => {
 *     const timer = setTimeout(run, ms)
 *     timer.unref()
 *     return () => clearTimeout(timer)
 *   },
 * }
 * const stop = repeatEvery(clock, 60_000, () => console.log('a minute'))
 * stop()
 * ```
 */
export const repeatEvery = (clock: Clock, ms: number, run: () => void): Cancel => {
  let cancel: Cancel = () => undefined
  const schedule = (): void => {
    cancel = clock.setTimer(ms, () => {
      schedule()
      run()
    })
  }
  schedule()
  return () => cancel()
}
