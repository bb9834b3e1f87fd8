import { monitorEventLoopDelay } from 'node:perf_hooks'
import { reportPending } from './pending.js'

// A bound about the machine's speed (what is left of a deadline once a slow database has taken
// its share, how late an answer may come past a bound) holds on a quiet machine and fails on a
// busy one. A test that holds such a bound takes a yardstick in the same run: the time this
// machine, under this load, takes now for the work the bound must leave room for. The bound is
// then sized to the yardstick where the machine is slower than the one it was written for, and
// stays as written where it is not. The product's own deadlines (a 408 after the request timeout,
// a 503 at answerWithinMs) stay what they are: only the room a test leaves around them scales.

/** The slowest of `count` runs of `work`, started `everyMs` apart: taken under a steady load, as the test's own. */
export const yardstickMs = async (count: number, everyMs: number, work: () => Promise<unknown>): Promise<number> => {
  const start = performance.now()
  const times = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + index * everyMs - performance.now())))
      const started = performance.now()
      await work()
      return performance.now() - started
    }),
  )
  return Math.max(...times)
}

/**
 * A deadline for a test in which a fault takes `share` of it: `writtenMs`, or longer when the
 * machine needs it, so that what the fault leaves is at least `headroom` yardsticks.
 */
export const deadlineBeside = (writtenMs: number, share: number, yardstick: number, headroom = 5): number =>
  Math.max(writtenMs, Math.ceil((headroom * yardstick) / (1 - share)))

/**
 * A real-time outcome is evidence only from a run in which this process could run: a run during
 * which its event loop was held up (by the machine, a garbage collection, another process on the
 * same cores) for longer than the room the test's fault leaves, `roomMs`, says nothing about the
 * code under test. `run` is tried until it passes, or fails in a run that had the room (that
 * failure is the test's), at most `tries` times; when no run had the room, the test is pending,
 * with the longest hold-up as its reason. `run` must set up its own state each time. A try the
 * test's own time (its mocha timeout) could not see to its end, judged by the longest try so far,
 * is not started: the tries so far had no room, and the test is pending as when none had it.
 * The hold-up is Node's own event-loop delay histogram (perf_hooks.monitorEventLoopDelay).
 */
export const inRunsWithRoom = async (test: Mocha.Context, roomMs: () => number, run: () => Promise<void>, tries = 3): Promise<void> => {
  const started = performance.now()
  let longestMs = 0
  let longestTryMs = 0
  let tried = 0
  while (tried < tries) {
    const budgetMs = test.timeout()
    if (tried > 0 && budgetMs > 0 && performance.now() - started + longestTryMs > budgetMs * 0.9) break
    tried += 1
    const tryStarted = performance.now()
    const delays = monitorEventLoopDelay({ resolution: 5 })
    delays.enable()
    let failure: unknown
    try {
      await run()
      return
    } catch (error) {
      failure = error
    } finally {
      delays.disable()
      longestTryMs = Math.max(longestTryMs, performance.now() - tryStarted)
    }
    const heldUpMs = delays.max / 1e6
    longestMs = Math.max(longestMs, heldUpMs)
    if (heldUpMs <= roomMs()) throw failure
  }
  reportPending(test.test?.fullTitle() ?? 'a test run with room', `in ${tried} runs this process was held up for up to ${Math.round(longestMs)} ms, more than the ${Math.round(roomMs())} ms the test leaves`)
  test.skip()
}
