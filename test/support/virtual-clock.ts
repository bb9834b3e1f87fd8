import { createClock } from '@sinonjs/fake-timers'
import type { Clock } from '../../core/index.js'

/** A Clock on virtual time, and the hands that move it. */
export interface VirtualClock {
  readonly clock: Clock
  /** Moves time on by `ms`, running each timer due on the way, in order, synchronously. */
  readonly advance: (ms: number) => void
  /**
   * Moves time on by `ms` as `advance` does, letting promise callbacks settle before each timer
   * and after the last: what an async policy needs between its timers.
   */
  readonly advanceAsync: (ms: number) => Promise<void>
  /** Runs every timer set, and those they set, until none is left (bounded by fake-timers' loop limit). */
  readonly runAllAsync: () => Promise<void>
  /** Timers set and neither run nor cancelled. */
  readonly pendingTimers: () => number
}

/**
 * A virtual clock built on @sinonjs/fake-timers' standalone clock, which patches no global: the
 * code under test takes it as its Clock, and the test's own timers, mocha's and the process's
 * are untouched. `now()` starts at 0; `epochMs()` at `epochMs` (2026-01-01 by default).
 */
export const virtualClock = (epochMs = Date.UTC(2026, 0, 1)): VirtualClock => {
  const fake = createClock(epochMs)
  const clock: Clock = {
    now: () => fake.now - epochMs,
    epochMs: () => fake.now,
    setTimer: (ms, run) => {
      const id = fake.setTimeout(run, Math.max(0, ms))
      return () => fake.clearTimeout(id)
    },
  }
  return {
    clock,
    advance: (ms) => void fake.tick(ms),
    advanceAsync: async (ms) => void (await fake.tickAsync(ms)),
    runAllAsync: async () => void (await fake.runAllAsync()),
    pendingTimers: () => fake.countTimers(),
  }
}
