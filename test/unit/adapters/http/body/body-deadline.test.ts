import type { IncomingMessage } from 'node:http'
import { PassThrough } from 'node:stream'
import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { makeJsonBodyReader } from '../../../../../adapters/http/body/json-body.js'
import type { DecodeQueue } from '../../../../../adapters/http/body/decode-queue.js'
import { deadlinePassed } from '../../../../../adapters/http/errors/problems.js'
import { DEFAULT_JSON_LIMITS } from '../../../../../wire/exact-json/index.js'
import { virtualClock } from '../../../../support/virtual-clock.js'

// The rule, as readRequestBytes and makeJsonBodyReader state it: a body still arriving at its
// deadline is given up then (DeadlinePassed, answered 503), and a body not in by then is not
// parsed; one in before it is read and parsed as sent.
describe("the request body's deadline, on virtual time", () => {
  // A JSON text sent in pieces: the pieces come at even times, the deadline is odd, so a piece
  // never arrives as the deadline passes.
  const scenario = fc.record({
    gaps: fc.array(fc.integer({ min: 0, max: 300 }).map((ms) => 2 * ms), { minLength: 1, maxLength: 8 }),
    deadline: fc.integer({ min: 0, max: 1_500 }).map((ms) => 2 * ms + 1),
  })

  const requestOf = (req: PassThrough): IncomingMessage => Object.assign(req, { socket: { remoteAddress: '127.0.0.1' } }) as unknown as IncomingMessage
  const head = { contentTypeLines: 1, contentType: 'application/json', contentEncoding: undefined, contentLength: undefined, transferEncoding: 'chunked' }

  it('answers the body sent in before the deadline, and DeadlinePassed at the deadline for one still arriving', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ gaps, deadline }) => {
        const { clock, advanceAsync } = virtualClock()
        const read = makeJsonBodyReader(64 * 1024, DEFAULT_JSON_LIMITS, undefined as unknown as DecodeQueue, clock)
        const req = new PassThrough()
        const text = JSON.stringify({ pieces: gaps })
        // The text cut into one piece per gap, the last piece with the end of the body.
        const cuts = gaps.map((_, i) => Math.floor((text.length * (i + 1)) / gaps.length))
        let at = 0
        for (const [i, gap] of gaps.entries()) {
          at += gap
          const piece = text.slice(i === 0 ? 0 : cuts[i - 1], cuts[i])
          const last = i === gaps.length - 1
          clock.setTimer(at, () => (last ? req.end(piece) : req.write(piece)))
        }
        const arrivedAt = at
        let settledAt: number | undefined
        const outcome = read(requestOf(req), head, undefined, deadline)().then((result) => {
          settledAt = clock.now()
          return result
        })
        await advanceAsync(Math.max(arrivedAt, deadline) + 10)
        const result = await outcome
        if (arrivedAt < deadline) {
          // Integers are read exactly, as bigints.
          expect(result).to.deep.equal(E.right({ pieces: gaps.map(BigInt) }))
          expect(settledAt).to.be.at.most(deadline)
        } else {
          expect(result).to.deep.equal(E.left(deadlinePassed))
          expect(settledAt).to.equal(deadline)
        }
      }),
    )
  })
})
