import { expect } from 'chai'
import fc from 'fast-check'
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import type * as E from 'fp-ts/lib/Either.js'
import { makeDecodeQueue } from '../../../../../adapters/http/body/decode-queue.js'
import { readRequestBytes } from '../../../../../adapters/http/body/request-bytes.js'
import { readRequestHead } from '../../../../../adapters/http/context/request-head.js'
import type { RequestProblem } from '../../../../../adapters/http/errors/problems.js'
import { openRaw, settlesWithin } from '../../../../support/raw-http.js'
import { propertyRuns } from '../../../../support/property-runs.js'

// Generous on a busy machine: the outcome follows the client's reset at once.
const SETTLE_WITHIN_MS = 4_000

describe('reading a request body', function () {
  this.timeout(20_000)
  let server: Server
  let outcome: Promise<E.Either<RequestProblem, Uint8Array>>
  beforeEach(async function () {
    let settle: (value: Promise<E.Either<RequestProblem, Uint8Array>>) => void = () => {}
    outcome = new Promise((resolve) => (settle = resolve)).then((read) => read as E.Either<RequestProblem, Uint8Array>)
    server = createServer((req) => settle(readRequestBytes(req, readRequestHead(req), 1_000, makeDecodeQueue())))
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
  })
  afterEach(async function () {
    server.closeAllConnections()
    server.close()
  })

  const sendAndCut = async (headers: string, body: Uint8Array): Promise<void> => {
    const connection = await openRaw(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    connection.write(`POST / HTTP/1.1\r\nHost: test\r\n${headers}\r\n`)
    connection.socket.write(body)
    await new Promise((resolve) => setTimeout(resolve, 100))
    connection.socket.destroy()
  }

  for (const [coding, bytes] of [
    ['identity', new TextEncoder().encode('{"id":1,')],
    ['gzip', gzipSync('{"id":1,"name":"a plant cut short"}').subarray(0, 12)],
  ] as const) {
    it(`settles a ${coding} body its client cuts short as one that ended early`, async function () {
      await sendAndCut(`Content-Encoding: ${coding}\r\nContent-Length: 100\r\n`, bytes)
      expect(await settlesWithin(outcome, SETTLE_WITHIN_MS), 'the read settled').to.equal(true)
      expect(await outcome).to.deep.equal({
        _tag: 'Left',
        left: { _tag: 'MalformedBody', detail: 'the request body ended before its declared length' },
      })
    })
  }
})

// A body is read one of two ways: taken at once when it waits whole in the stream's buffer (as a
// small body that came with its headers does by the time a route asks), or gathered as it
// arrives. Which one runs must never change the outcome.
describe('reading a request body, whole in the buffer or still arriving', function () {
  this.timeout(60_000)
  const LIMIT = 1_000

  // Each request is read when its test says: at once, or once its declared bytes are all buffered.
  let readWhen: (req: IncomingMessage) => Promise<void>
  let outcomes: Array<Promise<E.Either<RequestProblem, Uint8Array>>>
  let server: Server
  before(async function () {
    server = createServer((req, res) => {
      const outcome = readWhen(req).then(() => readRequestBytes(req, readRequestHead(req), LIMIT, makeDecodeQueue()))
      outcomes.push(outcome)
      void outcome.then(() => res.end())
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
  })
  after(function () {
    server.closeAllConnections()
    server.close()
  })

  const atOnce = (): Promise<void> => Promise.resolve()
  const onceBuffered = async (req: IncomingMessage): Promise<void> => {
    const declared = Number(req.headers['content-length'])
    while (req.readableLength < declared && !req.readableEnded) await new Promise((resolve) => setTimeout(resolve, 1))
  }

  // Sends one request in the given pieces, then reads the outcome of reading its body.
  const exchange = async (head: string, pieces: ReadonlyArray<Uint8Array>): Promise<E.Either<RequestProblem, Uint8Array>> => {
    outcomes = []
    const connection = await openRaw(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    connection.write(head)
    for (const piece of pieces) {
      await new Promise((resolve) => setTimeout(resolve, 1))
      connection.socket.write(piece)
    }
    while (outcomes.length === 0) await new Promise((resolve) => setTimeout(resolve, 1))
    const outcome = await (outcomes[0] as Promise<E.Either<RequestProblem, Uint8Array>>)
    connection.socket.destroy()
    return outcome
  }

  const splits = (bytes: Uint8Array): fc.Arbitrary<ReadonlyArray<Uint8Array>> =>
    fc
      .uniqueArray(fc.integer({ min: 1, max: Math.max(1, bytes.length - 1) }), { maxLength: 3 })
      .map((cuts) => [0, ...cuts.filter((cut) => cut < bytes.length).sort((a, b) => a - b), bytes.length])
      .map((edges) => edges.slice(1).map((end, index) => bytes.subarray(edges[index], end)))

  it('gives the bytes sent, and refuses a body over the limit, whichever way it is read', async function () {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: LIMIT + 200 }).chain((body) => fc.tuple(fc.constant(body), splits(body))),
        async ([body, pieces]) => {
          const head = `POST / HTTP/1.1\r\nHost: test\r\nContent-Length: ${body.length}\r\n\r\n`
          readWhen = atOnce
          const arriving = await exchange(head, pieces)
          readWhen = onceBuffered
          const buffered = await exchange(head, pieces)
          const expected = body.length > LIMIT ? { _tag: 'Left', left: { _tag: 'PayloadTooLarge', limitBytes: LIMIT } } : { _tag: 'Right', right: Buffer.from(body) }
          expect(arriving, 'read as it arrives').to.deep.equal(expected)
          expect(buffered, 'read whole from the buffer').to.deep.equal(expected)
        },
      ),
      { numRuns: propertyRuns(25) },
    )
  })
})
