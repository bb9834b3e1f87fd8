import { expect } from 'chai'
import fc from 'fast-check'
import { makeClientWatchdog } from '../../../../adapters/mongodb/client-watchdog.js'
import { propertyRuns } from '../../../support/property-runs.js'
import { virtualClock } from '../../../support/virtual-clock.js'

// The rule (docs/mongodb.md): a driver client whose calls keep finding no server they can reach,
// with no success in between, for the whole period is replaced; the period then starts again, so
// a MongoDB that stays down sees one replacement per period. Checked on virtual time.
describe('the MongoDB client watchdog', function () {
  const PERIOD_MS = 1000

  it('asks for a new client once failures have lasted the whole period, then starts counting again', function () {
    const { clock, advance } = virtualClock()
    const watchdog = makeClientWatchdog(PERIOD_MS, clock)
    const at = (ms: number): void => advance(ms - clock.now())
    expect([0, 500, 999].map((ms) => (at(ms), watchdog.failedUnreachable()))).to.deep.equal([false, false, false])
    at(1000)
    expect(watchdog.failedUnreachable()).to.equal(true)
    at(1500)
    expect(watchdog.failedUnreachable()).to.equal(false)
    at(2000)
    expect(watchdog.failedUnreachable()).to.equal(true)
  })

  it('forgets the failures at the first success', function () {
    const { clock, advance } = virtualClock()
    const watchdog = makeClientWatchdog(PERIOD_MS, clock)
    watchdog.failedUnreachable()
    advance(900)
    watchdog.succeeded()
    advance(200)
    expect(watchdog.failedUnreachable()).to.equal(false)
    advance(900)
    expect(watchdog.failedUnreachable()).to.equal(false)
    advance(100)
    expect(watchdog.failedUnreachable()).to.equal(true)
  })

  type Call = { readonly afterMs: number; readonly outcome: 'unreachable' | 'succeeded' }
  const calls = fc.array(
    fc.record({
      afterMs: fc.oneof(fc.integer({ min: 0, max: 700 }), fc.constantFrom(PERIOD_MS - 1, PERIOD_MS)),
      outcome: fc.constantFrom<Call['outcome']>('unreachable', 'unreachable', 'succeeded'),
    }),
    { maxLength: 60 },
  )

  it('replaces exactly when a streak of unreachable calls, since the last success or replacement, has lasted the period', function () {
    fc.assert(
      fc.property(calls, (sequence: ReadonlyArray<Call>) => {
        const { clock, advance } = virtualClock()
        const watchdog = makeClientWatchdog(PERIOD_MS, clock)
        // The oracle, from the events alone: when the current streak of failures began.
        let streakFrom: number | undefined
        const replacements: number[] = []
        for (const { afterMs, outcome } of sequence) {
          advance(afterMs)
          const now = clock.now()
          if (outcome === 'succeeded') {
            watchdog.succeeded()
            streakFrom = undefined
            continue
          }
          streakFrom ??= now
          const expected = now - streakFrom >= PERIOD_MS
          expect(watchdog.failedUnreachable(), `an unreachable call at ${now} ms, the streak since ${streakFrom} ms`).to.equal(expected)
          if (expected) {
            replacements.push(now)
            streakFrom = now
          }
        }
        // One replacement per period at most, however the calls fall.
        for (let index = 1; index < replacements.length; index += 1) {
          expect((replacements[index] ?? 0) - (replacements[index - 1] ?? 0)).to.be.at.least(PERIOD_MS)
        }
      }),
      { numRuns: propertyRuns(200) },
    )
  })
})
