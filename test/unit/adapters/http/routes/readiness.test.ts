import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { delay, storageUnavailable, type StorageUnavailable } from '../../../../../core/index.js'
import { sharedReadiness } from '../../../../../adapters/http/routes/readiness.js'
import { virtualClock } from '../../../../support/virtual-clock.js'

// The rule, as sharedReadiness states it: storage is asked at most once per maxAgeMs; requests in
// between share the probe in flight or reuse its answer, and a request maxAgeMs or more after the
// last probe ended starts a new one.
describe('the readiness probe shared by /readyz requests, on virtual time', () => {
  // Requests come at even times and probes take odd ones: a request never comes as a probe ends.
  const scenario = fc.record({
    maxAgeMs: fc.integer({ min: 0, max: 2_000 }),
    gaps: fc.array(fc.integer({ min: 0, max: 800 }).map((ms) => 2 * ms), { minLength: 1, maxLength: 30 }),
    probeMs: fc.array(fc.integer({ min: 0, max: 600 }).map((ms) => 2 * ms + 1), { minLength: 1, maxLength: 6 }),
  })

  it('asks storage once per period, and gives each request the answer the rule names', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ maxAgeMs, gaps, probeMs }) => {
        const { clock, advanceAsync } = virtualClock()
        const probeTime = (probe: number) => probeMs[probe % probeMs.length] ?? 1
        let probes = 0
        const checkReady = () => {
          const probe = probes++
          return async (): Promise<E.Either<StorageUnavailable, void>> => {
            await delay(clock, probeTime(probe))
            return E.left(storageUnavailable(probe))
          }
        }
        const readiness = sharedReadiness(checkReady, maxAgeMs, clock)
        const answers: Array<Promise<E.Either<StorageUnavailable, void>>> = []
        const expected: number[] = []
        // The model: the probe of each request, from when each probe started and ended.
        let last: { readonly probe: number; readonly endsAt: number } | undefined
        let started = 0
        for (const gap of gaps) {
          await advanceAsync(gap)
          const now = clock.now()
          if (last === undefined || (now > last.endsAt && now - last.endsAt >= maxAgeMs)) {
            last = { probe: started, endsAt: now + probeTime(started) }
            started += 1
          }
          expected.push(last.probe)
          answers.push(readiness())
        }
        await advanceAsync(10_000)
        const served = (await Promise.all(answers)).map((answer) => (E.isLeft(answer) ? (answer.left.cause as number) : -1))
        expect(served).to.deep.equal(expected)
        expect(probes).to.equal(started)
      }),
    )
  })
})
