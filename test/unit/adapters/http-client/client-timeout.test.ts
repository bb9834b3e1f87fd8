import { expect } from 'chai'
import fc from 'fast-check'
import { createPlantStoreClient } from '../../../../adapters/http-client/index.js'
import { virtualClock } from '../../../support/virtual-clock.js'

// The rule, as PlantStoreClientOptions.timeoutMs states it: a request not answered, its body
// included, within timeoutMs is a TransportFailure with reason Timeout; one answered in time is
// read as answered, and no timer outlives the call.
describe("the client's time-out, on virtual time", () => {
  // Answers come at even times, time-outs are odd: an answer never arrives as the time-out passes.
  // (No wait is 0: fake-timers makes a zero wait set while time moves last a millisecond.)
  const scenario = fc.record({
    timeoutMs: fc.integer({ min: 0, max: 5_000 }).map((ms) => 2 * ms + 1),
    headersMs: fc.integer({ min: 1, max: 3_000 }).map((ms) => 2 * ms),
    bodyMs: fc.integer({ min: 1, max: 3_000 }).map((ms) => 2 * ms),
  })

  it('fails a call still unanswered at its time-out with Timeout, and reads one answered before it', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ timeoutMs, headersMs, bodyMs }) => {
        const { clock, advanceAsync, pendingTimers } = virtualClock()
        const plant = JSON.stringify({ id: 1, name: 'Fern' })
        // A fetch as the platform's behaves: the signal fails it, before its answer or while its body comes.
        const fetch = (_url: string | URL | Request, init?: RequestInit): Promise<Response> =>
          new Promise((resolve, reject) => {
            const signal = init?.signal ?? undefined
            signal?.addEventListener('abort', () => reject(signal.reason))
            clock.setTimer(headersMs, () => {
              if (signal?.aborted === true) return
              const body = new ReadableStream<Uint8Array>({
                start: (controller) => {
                  signal?.addEventListener('abort', () => controller.error(signal.reason))
                  clock.setTimer(bodyMs, () => {
                    if (signal?.aborted === true) return
                    controller.enqueue(new TextEncoder().encode(plant))
                    controller.close()
                  })
                },
              })
              resolve(new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } }))
            })
          })
        const client = createPlantStoreClient({ baseUrl: 'http://plants.test', token: 'client-token-0123456789', timeoutMs, fetch, clock })
        const answer = client.promises.createPlant({ id: 1n, name: 'Fern' })
        await advanceAsync(headersMs + bodyMs + timeoutMs + 10)
        const result = await answer
        if (headersMs + bodyMs < timeoutMs) expect(result).to.have.nested.property('right.name', 'Fern')
        else expect(result).to.deep.include({ _tag: 'Left' }).and.to.have.nested.property('left.reason', 'Timeout')
        expect(pendingTimers()).to.equal(0)
      }),
    )
  })
})
