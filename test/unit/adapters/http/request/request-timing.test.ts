import { expect } from 'chai'
import fc from 'fast-check'
import type Koa from 'koa'
import { delay, type Logger } from '../../../../../core/index.js'
import { jsonRepresentation } from '../../../../../adapters/http/context/answer.js'
import { requestBoundary } from '../../../../../adapters/http/request/boundary.js'
import { virtualClock } from '../../../../support/virtual-clock.js'

// The rule, as the boundary states it: a request's `ms` on its log line, and the seconds its
// observer is told, are the clock's time from the request's arrival at the boundary to its answer
// being settled.
describe("a request's duration, on virtual time", () => {
  // The parts of Koa's context the boundary reads for a request answered with a representation.
  const contextOf = (): Koa.Context => {
    const response = { status: 404, body: undefined as unknown, set: () => undefined, vary: () => undefined }
    return {
      req: { headers: {}, rawHeaders: [], method: 'GET', url: '/healthz', complete: true, socket: {} },
      res: { getHeaderNames: () => [] },
      method: 'GET',
      response,
      set: () => undefined,
      headerSent: false,
    } as unknown as Koa.Context
  }

  it('logs and observes the time the answer took, to the tenth of a millisecond', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 60_000 }), async (arrivesAt, answerMs) => {
        const { clock, advanceAsync } = virtualClock()
        const lines: Array<Record<string, unknown>> = []
        const log: Logger = { info: (_message, fields) => lines.push(fields ?? {}), warn: () => undefined, error: () => undefined }
        const seconds: number[] = []
        const boundary = requestBoundary({
          log,
          observer: { requestFinished: (_route, _method, _status, took) => seconds.push(took) },
          tracer: undefined,
          draining: () => false,
          answer: async () => {
            await delay(clock, answerMs)
            return jsonRepresentation('/healthz', 200, { status: 'alive' })
          },
          routeOf: () => '/healthz',
          clock,
        })
        await advanceAsync(arrivesAt)
        const started = clock.now()
        let ended: number | undefined
        const done = boundary(contextOf(), async () => undefined).then(() => (ended = clock.now()))
        await advanceAsync(answerMs + 5)
        await done
        const took = (ended ?? NaN) - started
        expect(took).to.be.at.least(answerMs)
        expect(lines).to.have.lengthOf(1)
        expect(lines[0]?.['ms']).to.equal(Math.round(took * 10) / 10)
        expect(seconds).to.deep.equal([took / 1000])
      }),
    )
  })
})
