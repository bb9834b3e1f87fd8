import { expect } from 'chai'
import fc from 'fast-check'
import { flushWhileWaiting, LOG_FLUSH_MS } from '../../../../apps/server/logger.js'
import { virtualClock } from '../../../support/virtual-clock.js'

// The rule, as flushWhileWaiting states it: a line handed to the destination is asked to be written
// within LOG_FLUSH_MS, whether or not other lines come to share its write, and again every
// LOG_FLUSH_MS while it still waits; while no line waits, no timer is set.
// The destination is sonic-boom's worst case for it: lines below minLength are written only when a
// flush asks, one write at a time, and a flush asked while a write is under way writes nothing.
describe("the log's flush, on virtual time", () => {
  const scenario = fc.record({
    // How long after the one before each line comes.
    gaps: fc.array(fc.integer({ min: 0, max: 3 * LOG_FLUSH_MS }), { minLength: 1, maxLength: 40 }),
    // How long each write takes, in turn.
    writeMs: fc.array(fc.integer({ min: 0, max: 4 * LOG_FLUSH_MS }), { minLength: 1, maxLength: 8 }),
  })

  it('asks for every waiting line within the bound, again while it waits, and sets no timer while none does', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ gaps, writeMs }) => {
        const { clock, advanceAsync, pendingTimers } = virtualClock()
        interface Line {
          readonly at: number
          takenAt?: number
        }
        const waiting: Line[] = []
        const lines: Line[] = []
        const flushes: number[] = []
        let writing = false
        let writes = 0
        const destination = {
          waiting: () => waiting.length,
          flush: () => {
            flushes.push(clock.now())
            if (writing) return
            const taken = waiting.splice(0)
            for (const line of taken) line.takenAt = clock.now()
            writing = true
            clock.setTimer(writeMs[writes++ % writeMs.length] ?? 0, () => {
              writing = false
            })
          },
        }
        const flushSoon = flushWhileWaiting(clock, LOG_FLUSH_MS, destination)
        for (const gap of gaps) {
          await advanceAsync(gap)
          const line: Line = { at: clock.now() }
          lines.push(line)
          waiting.push(line)
          flushSoon()
        }
        await advanceAsync(100 * LOG_FLUSH_MS)

        for (const line of lines) {
          expect(line.takenAt, `the line of ${line.at} ms is written`).to.be.a('number')
          const asked = [line.at, ...flushes.filter((at) => at >= line.at && at <= (line.takenAt ?? Infinity))]
          for (const [i, at] of asked.entries()) {
            if (i > 0) expect(at - (asked[i - 1] ?? 0), `a flush for the line of ${line.at} ms`).to.be.at.most(LOG_FLUSH_MS)
          }
          expect(asked.at(-1)).to.equal(line.takenAt)
        }
        // Nothing waits: only the last write may still be under way, and no flush timer is set.
        expect(pendingTimers()).to.equal(0)
      }),
    )
  })
})
