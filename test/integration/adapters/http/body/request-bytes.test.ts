import { expect } from 'chai'
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { gzipSync } from 'node:zlib'
import type * as E from 'fp-ts/lib/Either.js'
import { makeDecodeQueue } from '../../../../../adapters/http/body/decode-queue.js'
import { readRequestBytes } from '../../../../../adapters/http/body/request-bytes.js'
import type { RequestProblem } from '../../../../../adapters/http/errors/problems.js'
import { settlesWithin } from '../../../../support/raw-http.js'

// Generous on a busy machine: the outcome follows the client's reset at once.
const SETTLE_WITHIN_MS = 4_000

describe('reading a request body', function () {
  this.timeout(20_000)
  let server: Server
  let outcome: Promise<E.Either<RequestProblem, Uint8Array>>
  beforeEach(async function () {
    let settle: (value: Promise<E.Either<RequestProblem, Uint8Array>>) => void = () => {}
    outcome = new Promise((resolve) => (settle = resolve)).then((read) => read as E.Either<RequestProblem, Uint8Array>)
    server = createServer((req) => settle(readRequestBytes(req, 1_000, makeDecodeQueue())))
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
  })
  afterEach(async function () {
    server.closeAllConnections()
    server.close()
  })

  const sendAndCut = async (headers: string, body: Uint8Array): Promise<void> => {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1')
    socket.on('error', () => {})
    await once(socket, 'connect')
    socket.write(`POST / HTTP/1.1\r\nHost: test\r\n${headers}\r\n`)
    socket.write(body)
    await new Promise((resolve) => setTimeout(resolve, 100))
    socket.destroy()
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
