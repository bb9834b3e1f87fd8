import { expect } from 'chai'
import fc from 'fast-check'
import { delay, repeatEvery } from '../../../core/index.js'
import { virtualClock } from '../../support/virtual-clock.js'

// The rules, as core/ports/clock.ts states them: `delay` settles `ms` from now; `repeatEvery` runs
// every `ms`, each run `ms` after the last began, and never once cancelled.
describe('waits and repeats on a clock', () => {
  it('runs a repeat at every multiple of its period, and never after it is cancelled', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 20_000 }), (ms, until, after) => {
        const { clock, advance, pendingTimers } = virtualClock()
        const runs: number[] = []
        const cancel = repeatEvery(clock, ms, () => runs.push(clock.now()))
        advance(until)
        expect(runs).to.deep.equal(Array.from({ length: Math.floor(until / ms) }, (_, i) => (i + 1) * ms))
        cancel()
        advance(after)
        expect(runs).to.have.lengthOf(Math.floor(until / ms))
        expect(pendingTimers()).to.equal(0)
      }),
    )
  })

  it('keeps repeating when a run throws', () => {
    const { clock, advance } = virtualClock()
    let runs = 0
    repeatEvery(clock, 10, () => {
      runs += 1
      throw new Error('a failed run')
    })
    for (let i = 0; i < 3; i += 1) expect(() => advance(10)).to.throw('a failed run')
    expect(runs).to.equal(3)
  })

  it('rejects a delay with the reason of its signal once aborted, leaving no timer, and settles it on time otherwise', async () => {
    await fc.assert(
      // An abort due at the very moment the delay ends may come first or not: the rule does not say.
      fc.asyncProperty(fc.integer({ min: 1, max: 10_000 }), fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: undefined }), async (ms, abortAt) => {
        fc.pre(abortAt !== ms)
        const { clock, advanceAsync, pendingTimers } = virtualClock()
        const controller = new AbortController()
        const reason = new Error('the deadline passed')
        if (abortAt !== undefined) clock.setTimer(abortAt, () => controller.abort(reason))
        let outcome: readonly [string, number] | undefined
        void delay(clock, ms, controller.signal).then(
          () => (outcome = ['settled', clock.now()]),
          (error: unknown) => (outcome = [error === reason ? 'aborted' : 'other', clock.now()]),
        )
        await advanceAsync(20_000)
        expect(outcome).to.deep.equal(abortAt !== undefined && abortAt < ms ? ['aborted', abortAt] : ['settled', ms])
        expect(pendingTimers()).to.equal(0)
      }),
    )
  })

  it('settles a delay exactly when its time has come', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 10_000 }), async (ms) => {
        const { clock, advanceAsync } = virtualClock()
        let settledAt: number | undefined
        void delay(clock, ms).then(() => (settledAt = clock.now()))
        await advanceAsync(Math.max(0, ms - 1))
        if (ms > 0) expect(settledAt).to.equal(undefined)
        await advanceAsync(1)
        expect(settledAt).to.equal(ms)
      }),
    )
  })
})
