import { expect } from 'chai'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { createBoundedServer, DEFAULT_HTTP_SERVER_LIMITS } from '../../../../../adapters/http/index.js'
import { finalResponses, openRaw, settlesWithin, waitForText, type RawConnection } from '../../../../support/raw-http.js'
import { startTestApp } from '../../../../support/http-app.js'

// Bytes the parser refuses on a kept-alive connection whose previous answer has finished. The
// listener that answers them once read Node's internals and threw on this state, which ended the
// process: any client could stop the service with one connection. After each, the connection gets
// its Error document, and the server still answers a fresh request.

const GET_HEALTHZ = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'

const refusals: ReadonlyArray<readonly [string, (connection: RawConnection) => void, number]> = [
  ['plain garbage', (c) => c.write('garbage garbage\r\n\r\n'), 400],
  ['a 17,000-byte header', (c) => c.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(17_000)}\r\n\r\n`), 431],
  [
    'Transfer-Encoding with Content-Length',
    (c) => c.write('POST /plants HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n'),
    400,
  ],
  ['half a request line, then FIN', (c) => c.socket.end('GET /heal'), 400],
  ['headers trickled past the headers timeout', (c) => c.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'), 408],
]

interface Served {
  readonly url: string
  readonly close: () => Promise<void>
}

const kinds: ReadonlyArray<readonly [string, () => Promise<Served>]> = [
  ['the app', () => startTestApp({}, { headersTimeoutMs: 500, requestTimeoutMs: 1_000 })],
  ['a bounded server for another listener (the metrics one)', () => startBounded()],
]

// The server of a suite, started before its tests and closed after them.
const useServed = (start: () => Promise<Served>): (() => Served) => {
  let served: Served | undefined
  before(async function () {
    served = await start()
  })
  after(async function () {
    await served?.close()
  })
  return () => {
    if (served === undefined) throw new Error('the server is not started yet')
    return served
  }
}

for (const [kind, start] of kinds) {
  describe(`parser refusals after a finished answer, on ${kind}`, function () {
    this.timeout(10_000)
    const served = useServed(start)

    for (const [label, send, status] of refusals) {
      it(`answers ${status} for ${label} and keeps serving`, async function () {
        const url = served().url
        const connection = await openRaw(url)
        connection.write(GET_HEALTHZ)
        await waitForText(connection, /\r\n\r\n\{[^}]*\}/, 2_000)
        send(connection)
        expect(await settlesWithin(connection.closed, 3_000), 'closed by the server').to.equal(true)
        const answers = finalResponses(connection.received())
        expect(answers.map((answer) => answer.status)).to.deep.equal([200, status])
        expect(JSON.parse(answers[1]?.body ?? '{}')).to.have.property('error', status)
        const fresh = await fetch(`${url}/healthz`)
        expect(fresh.status).to.equal(200)
      })
    }
  })
}

const startBounded = async (): Promise<Served> => {
  const server = createBoundedServer(
    (_req, res) => {
      res.setHeader('Content-Type', 'application/json')
      res.end('{"status":"ok"}')
    },
    { ...DEFAULT_HTTP_SERVER_LIMITS, headersTimeoutMs: 500, requestTimeoutMs: 1_000 },
  )
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

for (const [kind, start] of kinds) {
  describe(`what follows a closing answer, and an Expect no server meets, on ${kind}`, function () {
    this.timeout(10_000)
    const served = useServed(start)

    it('answers a request that asked to close, and nothing after it, whatever bytes follow', async function () {
      const connection = await openRaw(served().url)
      connection.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\ngarbage\r\n\r\n')
      expect(await settlesWithin(connection.closed, 3_000), 'closed by the server').to.equal(true)
      expect(finalResponses(connection.received()).map((answer) => answer.status)).to.deep.equal([200])
    })

    it('answers an Expect other than 100-continue with a 417 Error document and a request id', async function () {
      const connection = await openRaw(served().url)
      connection.write('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nX-Request-Id: expect-417\r\n\r\n')
      await waitForText(connection, /\r\n\r\n\{[^}]*\}/, 2_000)
      connection.socket.destroy()
      const [answer] = finalResponses(connection.received())
      expect(answer?.status).to.equal(417)
      expect(answer?.headers['x-request-id']).to.equal('expect-417')
      expect(JSON.parse(answer?.body ?? '{}')).to.have.property('error', 417)
    })

    it("stamps every answer with the request's id: the one it sent when well-formed, a fresh one otherwise", async function () {
      const connection = await openRaw(served().url)
      connection.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: stamped-1\r\n\r\n')
      connection.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: not well formed\r\nConnection: close\r\n\r\n')
      expect(await settlesWithin(connection.closed, 3_000), 'closed by the server').to.equal(true)
      const [first, second] = finalResponses(connection.received())
      expect(first?.status).to.equal(200)
      expect(first?.headers['x-request-id']).to.equal('stamped-1')
      expect(second?.status).to.equal(200)
      expect(second?.headers['x-request-id']).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    })

    it("answers CONNECT with a 501 Error document carrying the request's id", async function () {
      const connection = await openRaw(served().url)
      connection.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nX-Request-Id: connect-501\r\n\r\n')
      expect(await settlesWithin(connection.closed, 3_000), 'closed by the server').to.equal(true)
      const [answer] = finalResponses(connection.received())
      expect(answer?.status).to.equal(501)
      expect(answer?.headers['x-request-id']).to.equal('connect-501')
      expect(JSON.parse(answer?.body ?? '{}')).to.have.property('error', 501)
    })
  })
}
