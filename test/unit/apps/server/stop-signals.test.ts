import { expect } from 'chai'
import fc from 'fast-check'
import { REPEAT_WINDOW_MS, stopSignals, type SignalMeaning } from '../../../../apps/server/stop-signals.js'
import { virtualClock } from '../../../support/virtual-clock.js'

// The rule, as stop-signals.ts states it: the first signal begins the stop; one less than
// REPEAT_WINDOW_MS after that first is its copy; any later one asks to exit without waiting.
describe('the meaning of stop signals, on virtual time', () => {
  it('takes the first for the stop, those within the window of it for copies, and a later one for exit now', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 12 }), (firstAt, gaps) => {
        const { clock, advance } = virtualClock()
        const meaningOf = stopSignals(clock)
        advance(firstAt)
        expect(meaningOf()).to.equal('stop')
        let since = 0
        for (const gap of gaps) {
          advance(gap)
          since += gap
          const expected: SignalMeaning = since < REPEAT_WINDOW_MS ? 'repeat' : 'exit now'
          expect(meaningOf(), `a signal ${since} ms after the first`).to.equal(expected)
        }
      }),
    )
  })
})
