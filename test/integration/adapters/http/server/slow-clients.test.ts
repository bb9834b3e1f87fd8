import { expect } from 'chai'
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHttpApp, createHttpServer, DEFAULT_HTTP_SERVER_LIMITS } from '../../../../../adapters/http/index.js'
import { makeInMemoryPlantStore } from '../../../../../adapters/in-memory/index.js'
import { makeStaticTokenAuthenticator } from '../../../../../adapters/static-tokens/index.js'
import { makeMemoryLogger, postPlant, TOKEN, useTestApp } from '../../../../support/http-app.js'
import { checkTrafficOf, forgetTrafficOf } from '../../../../support/traffic-check.js'
import { expectOneRawErrorDocument, openRaw, settlesWithin, waitForText, type RawConnection } from '../../../../support/raw-http.js'

const head = (headers: string): string => `POST /plants HTTP/1.1\r\nHost: test\r\n${headers}\r\n`
const JSON_TYPE = 'Content-Type: application/json\r\n'
const AUTHORIZED = `Authorization: Bearer ${TOKEN}\r\n`

// Generous against the limits below, on a busy machine; Node's defaults held these sockets 300 s.
const CLOSE_WITHIN_MS = 4_000

const trickle = (connection: RawConnection): NodeJS.Timeout =>
  setInterval(() => connection.write('1'), 100)

describe('slow and idle clients', function () {
  this.timeout(20_000)
  const connections: RawConnection[] = []
  // Before the app closes: its connections first.
  afterEach(function () {
    for (const connection of connections.splice(0)) connection.socket.destroy()
  })
  const app = useTestApp(() => ({}), { headersTimeoutMs: 1_000, requestTimeoutMs: 1_500, keepAliveTimeoutMs: 500 })
  const open = async (): Promise<RawConnection> => {
    const connection = await openRaw(app.url)
    connections.push(connection)
    return connection
  }

  for (const [label, status, headers] of [
    ['without a token', 401, JSON_TYPE],
    ['with an unknown token', 401, `${JSON_TYPE}Authorization: Bearer unknown-token-0123456789\r\n`],
    ['with a body over the limit', 413, AUTHORIZED + JSON_TYPE],
    ['with a Content-Type that is not JSON', 415, `${AUTHORIZED}Content-Type: text/plain\r\n`],
  ] as const) {
    it(`answers a client trickling its body ${label} once, ${status} with Connection: close, and closes`, async function () {
      const connection = await open()
      const length = status === 413 ? 1_000_000 : 10_000
      connection.write(`${head(`${headers}Content-Length: ${length}\r\n`)}{"id":`)
      const dripping = trickle(connection)
      try {
        expect(await settlesWithin(connection.closed, CLOSE_WITHIN_MS), 'closed by the server').to.equal(true)
      } finally {
        clearInterval(dripping)
      }
      const response = expectOneRawErrorDocument(connection.received(), status)
      expect(response.headers['connection']).to.equal('close')
    })
  }

  it('keeps the connection of a request refused after its whole body arrived', async function () {
    const connection = await open()
    const body = '{"id":1,"name":"x"}'
    connection.write(`${head(`${JSON_TYPE}Content-Length: ${body.length}\r\n`)}${body}`)
    await waitForText(connection, /\r\n\r\n\{.*\}$/s, CLOSE_WITHIN_MS)
    const response = expectOneRawErrorDocument(connection.received(), 401)
    expect(response.headers['connection']).to.equal('keep-alive')
  })

  it("answers 408 to a valid request whose body stops coming, with the request's own id, closes, and logs 408", async function () {
    const connection = await open()
    connection.write(`${head(`${AUTHORIZED}${JSON_TYPE}X-Request-Id: slow-body-1\r\nContent-Length: 100\r\n`)}{"id":1,`)
    expect(await settlesWithin(connection.closed, CLOSE_WITHIN_MS), 'closed by the server').to.equal(true)
    const response = expectOneRawErrorDocument(connection.received(), 408)
    expect(response.headers['x-request-id'], 'the id the request sent, as on its log line').to.equal('slow-body-1')
    await new Promise((resolve) => setTimeout(resolve, 100))
    // The request that was cut is logged with the status its client got (the traffic check's own
    // GET /openapi.json is logged too, before it).
    const posts = app.log.lines.filter((line) => line['method'] === 'POST')
    expect(posts.map((line) => [line['status'], line['requestId']])).to.deep.equal([[408, 'slow-body-1']])
  })

  it('answers 408 to headers that stop coming, and closes', async function () {
    const connection = await open()
    connection.write('POST /plants HTTP/1.1\r\nHost: test\r\n')
    expect(await settlesWithin(connection.closed, CLOSE_WITHIN_MS), 'closed by the server').to.equal(true)
    expectOneRawErrorDocument(connection.received(), 408)
  })

  it('closes a connection that sends nothing', async function () {
    const connection = await open()
    expect(await settlesWithin(connection.closed, CLOSE_WITHIN_MS), 'closed by the server').to.equal(true)
  })

  it('closes a kept-alive connection left idle after its response', async function () {
    const connection = await open()
    connection.write('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n')
    await waitForText(connection, /"alive"/, CLOSE_WITHIN_MS)
    expect(await settlesWithin(connection.closed, CLOSE_WITHIN_MS), 'closed by the server').to.equal(true)
  })

  it('refuses a connection beyond the cap when every slot holds a request in flight, and serves those', async function () {
    // Default timeouts here: the earlier requests wait for their bodies while the cap is tried.
    await app.restart({}, { maxConnections: 4 })
    const earlier = await Promise.all([open(), open(), open(), open()])
    const body = '{"id":1,"name":"x"}'
    for (const connection of earlier) connection.write(head(`${AUTHORIZED}${JSON_TYPE}Content-Length: ${body.length}\r\n`))
    await new Promise((resolve) => setTimeout(resolve, 100))
    const beyond = await open()
    expect(await settlesWithin(beyond.closed, CLOSE_WITHIN_MS), 'the excess connection closed').to.equal(true)
    expect(beyond.received()).to.equal('')
    for (const connection of earlier) connection.write(body)
    for (const connection of earlier) await waitForText(connection, /\r\n\r\n\{/, CLOSE_WITHIN_MS)
  })

  it("at the cap, lets a new connection take the place of another client's idle one", async function () {
    await app.restart({}, { maxConnections: 4 })
    const idle = await Promise.all([1, 2, 3, 4].map(async () => {
      const connection = await openRaw(app.url, '127.0.0.3')
      connections.push(connection)
      return connection
    }))
    const newcomer = await open()
    newcomer.write('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n')
    await waitForText(newcomer, /"alive"/, CLOSE_WITHIN_MS)
    const closed = await Promise.all(idle.map((connection) => settlesWithin(connection.closed, 200)))
    expect(closed.filter(Boolean), 'idle connections that gave way').to.have.length(1)
  })

  it('closes a connection that sends nothing long before the headers timeout', async function () {
    await app.restart({}, { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 })
    const silent = await open()
    const opened = performance.now()
    expect(await settlesWithin(silent.closed, 5000), 'closed by the server').to.equal(true)
    expect(performance.now() - opened, 'ms until closed (the headers timeout is 10 s)').to.be.below(4000)
    expect(silent.received()).to.equal('')
  })
})

describe('one app served by several servers, or by a server of its embedder', function () {
  this.timeout(20_000)
  const closers: Array<() => Promise<void>> = []
  afterEach(async function () {
    for (const close of closers.splice(0)) await close()
  })
  const serve = async (server: Server): Promise<string> => {
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    await checkTrafficOf(url)
    closers.push(async () => {
      forgetTrafficOf(url)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    })
    return url
  }
  const appLoggingTo = (log: ReturnType<typeof makeMemoryLogger>) => {
    const app = createHttpApp({ plantStore: makeInMemoryPlantStore(), authenticator: makeStaticTokenAuthenticator([TOKEN]), log })
    app.silent = true
    return app
  }

  it("logs the 408 each of two servers answered for a body it cut, under that request's own id", async function () {
    const log = makeMemoryLogger()
    const app = appLoggingTo(log)
    const limits = { ...DEFAULT_HTTP_SERVER_LIMITS, headersTimeoutMs: 1_000, requestTimeoutMs: 1_500 }
    const urls = await Promise.all([serve(createHttpServer(app, limits)), serve(createHttpServer(app, limits))])
    const cut = await Promise.all(
      urls.map(async (url, index) => {
        const connection = await openRaw(url)
        connection.write(`${head(`${AUTHORIZED}${JSON_TYPE}X-Request-Id: cut-on-${index}\r\nContent-Length: 100\r\n`)}{"id":1,`)
        expect(await settlesWithin(connection.closed, CLOSE_WITHIN_MS), 'closed by the server').to.equal(true)
        return expectOneRawErrorDocument(connection.received(), 408).headers['x-request-id']
      }),
    )
    expect(cut).to.deep.equal(['cut-on-0', 'cut-on-1'])
    await new Promise((resolve) => setTimeout(resolve, 100))
    const posts = log.lines.filter((line) => line['method'] === 'POST')
    expect(posts.map((line) => [line['status'], line['requestId']])).to.have.deep.members([
      [408, 'cut-on-0'],
      [408, 'cut-on-1'],
    ])
  })

  it("gives each request its id when served by Node's own server, echoed and logged", async function () {
    const log = makeMemoryLogger()
    const handle = appLoggingTo(log).callback()
    const url = await serve(createServer((req, res) => void handle(req, res)))
    const named = await postPlant(url, '{"id":1,"name":"x"}', { 'X-Request-Id': 'embedded-1' })
    expect(named.status).to.equal(200)
    expect(named.headers.get('x-request-id')).to.equal('embedded-1')
    const unnamed = await fetch(`${url}/nowhere`)
    expect(unnamed.status).to.equal(404)
    const given = unnamed.headers.get('x-request-id')
    expect(given).to.match(/^[0-9a-f-]{36}$/)
    // The traffic check's own GET /openapi.json is logged too, before them.
    const lines = log.lines.filter((line) => line['route'] !== '/openapi.json')
    expect(lines.map((line) => [line['requestId'], line['route'], line['status']])).to.deep.equal([
      ['embedded-1', '/plants', 200],
      [given, 'unmatched', 404],
    ])
  })
})
