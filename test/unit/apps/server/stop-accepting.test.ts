import { expect } from 'chai'
import fc from 'fast-check'
import { HALF_SENT_MS, IDLE_SWEEP_MS, stopAccepting, type ListenerToStop } from '../../../../apps/server/stop-accepting.js'
import { virtualClock } from '../../../support/virtual-clock.js'

// The rule, as stopAccepting states it: the listener stops accepting; its idle connections close at
// once and every IDLE_SWEEP_MS after; a request still sending its body is cut HALF_SENT_MS after
// the stop began (at graceMs, if sooner); every connection left is cut at graceMs; once the
// listener has closed, nothing more is done and no timer is left. The listener here closes by
// itself at `closesAt` (its connections ended), or when every connection is cut.
describe('the stop of a listener, on virtual time', () => {
  const scenario = fc
    .record({ graceMs: fc.integer({ min: 1, max: 5_000 }), closesAt: fc.integer({ min: 0, max: 6_000 }) })
    // Two things due at the same moment happen in an order the rule does not choose.
    .filter(
      ({ graceMs, closesAt }) =>
        closesAt % IDLE_SWEEP_MS !== 0 && graceMs % IDLE_SWEEP_MS !== 0 && closesAt !== graceMs && closesAt !== Math.min(HALF_SENT_MS, graceMs),
    )

  it('sweeps idle connections, cuts half-sent requests, then everything, each at its time, and stops there', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ graceMs, closesAt }) => {
        const { clock, advanceAsync, pendingTimers } = virtualClock()
        const done: Array<readonly [string, number]> = []
        let close: () => void = () => undefined
        let closed = false
        const end = (): void => {
          if (closed) return
          closed = true
          close()
        }
        clock.setTimer(closesAt, end)
        const listener: ListenerToStop = {
          close: (closedCallback) => {
            done.push(['close', clock.now()])
            close = closedCallback
          },
          closeIdleConnections: () => done.push(['idle', clock.now()]),
          cutHalfSent: () => done.push(['half-sent', clock.now()]),
          closeAllConnections: () => {
            done.push(['all', clock.now()])
            end()
          },
        }
        let settledAt: number | undefined
        void stopAccepting(listener, graceMs, clock).then(() => (settledAt = clock.now()))
        await advanceAsync(10_000)

        const closedAt = Math.min(closesAt, graceMs)
        const halfSentAt = Math.min(HALF_SENT_MS, graceMs)
        // At once, then each period the listener has not closed by (a sweep due as the forced cut
        // closes it has nothing left to do, and is not made).
        const sweeps = Array.from({ length: Math.ceil(closedAt / IDLE_SWEEP_MS) }, (_, i) => i * IDLE_SWEEP_MS)
        const expected: Array<readonly [string, number]> = [
          ['close', 0],
          ...sweeps.map((at) => ['idle', at] as const),
          ...(halfSentAt < closesAt ? [['half-sent', halfSentAt] as const] : []),
          ...(graceMs < closesAt ? [['all', graceMs] as const] : []),
        ]
        const byTime = (a: readonly [string, number], b: readonly [string, number]) => a[1] - b[1] || a[0].localeCompare(b[0])
        expect([...done].sort(byTime)).to.deep.equal(expected.sort(byTime))
        expect(settledAt).to.equal(closedAt)
        expect(pendingTimers()).to.equal(0)
      }),
    )
  })
})
