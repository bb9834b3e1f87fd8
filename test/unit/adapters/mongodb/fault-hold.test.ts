import { expect } from 'chai'
import fc from 'fast-check'
import { makeFaultHold } from '../../../../adapters/mongodb/fault-hold.js'
import { propertyRuns } from '../../../support/property-runs.js'
import { virtualClock } from '../../../support/virtual-clock.js'

// The rule (docs/mongodb.md, configuration faults): readiness reports the configuration fault a
// store call last met until the hold has passed since it was met, or until a store call
// succeeds, whichever comes first. Checked on virtual time over generated sequences of store
// calls and readiness probes, against the rule read directly off the events that came before.
describe('a configuration fault held for readiness', function () {
  const HELD_MS = 1000
  type Event = { readonly afterMs: number } & ({ readonly kind: 'met'; readonly fault: string } | { readonly kind: 'succeeded' } | { readonly kind: 'probe' })
  const events = fc.array(
    fc.oneof(
      fc.record({ afterMs: fc.integer({ min: 0, max: 1500 }), kind: fc.constant('met' as const), fault: fc.constantFrom('AuthenticationFailed', 'Unauthorized', 'UnknownReplWriteConcern') }),
      fc.record({ afterMs: fc.integer({ min: 0, max: 1500 }), kind: fc.constant('succeeded' as const) }),
      fc.record({ afterMs: fc.oneof(fc.integer({ min: 0, max: 1500 }), fc.constantFrom(HELD_MS - 1, HELD_MS, HELD_MS + 1)), kind: fc.constant('probe' as const) }),
    ),
    { maxLength: 40 },
  )

  it('is reported from the call that met it until the hold passes or a call succeeds', function () {
    fc.assert(
      fc.property(events, (sequence: ReadonlyArray<Event>) => {
        const { clock, advance } = virtualClock()
        const hold = makeFaultHold<string>(HELD_MS, clock)
        const seen: Array<{ readonly at: number; readonly event: Event }> = []
        for (const event of sequence) {
          advance(event.afterMs)
          const at = clock.now()
          if (event.kind === 'met') hold.met(event.fault)
          if (event.kind === 'succeeded') hold.succeeded()
          if (event.kind === 'probe') {
            // The oracle: the last store call's outcome, if it was a fault met less than the hold ago.
            const lastCall = [...seen].reverse().find(({ event: earlier }) => earlier.kind !== 'probe')
            const expected = lastCall?.event.kind === 'met' && at - lastCall.at < HELD_MS ? lastCall.event.fault : undefined
            expect(hold.held(), `probe at ${at} ms after ${JSON.stringify(seen)}`).to.equal(expected)
          }
          seen.push({ at, event })
        }
      }),
      { numRuns: propertyRuns(200) },
    )
  })
})
