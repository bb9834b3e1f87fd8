import type { Clock } from '../../core/index.js'

// A terminal's Ctrl-C reaches every process of its group, npm and node alike, and npm passes its
// copy on: one keypress arrives twice within milliseconds. A repeat within this window is that
// same signal; a later one asks to stop now.
/** How long after the signal that began the stop a second one is taken for a copy of it. */
export const REPEAT_WINDOW_MS = 500

/** What a stop signal asks: begin the graceful stop, nothing (a copy of the first), or exit now. */
export type SignalMeaning = 'stop' | 'repeat' | 'exit now'

/**
 * The meaning of each stop signal, in the order they arrive: the first begins the stop; one less
 * than `REPEAT_WINDOW_MS` after that first is its copy; any later one asks to exit without waiting.
 */
export const stopSignals = (clock: Pick<Clock, 'now'>): (() => SignalMeaning) => {
  let stoppingSince: number | undefined
  return () => {
    if (stoppingSince === undefined) {
      stoppingSince = clock.now()
      return 'stop'
    }
    return clock.now() - stoppingSince < REPEAT_WINDOW_MS ? 'repeat' : 'exit now'
  }
}
