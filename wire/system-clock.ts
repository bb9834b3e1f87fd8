import type { Clock } from '../core/index.js'
import { MAX_TIMER_MS } from './whole-number.js'

/**
 * The process's clock: `performance.now()`, `Date.now()` and Node's timers, unref'd. The one
 * place shipped code reads real time; everything timed takes it, or a virtual clock in tests.
 */
export const systemClock: Clock = {
  now: () => performance.now(),
  epochMs: () => Date.now(),
  setTimer: (ms, run) => {
    const timer = setTimeout(run, Math.min(Math.max(0, ms), MAX_TIMER_MS))
    timer.unref()
    return () => clearTimeout(timer)
  },
}
