import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { makeInMemoryPlantStore, type InMemoryPlantStore } from '../../../../adapters/in-memory/index.js'
import { createPlantStoreClient, type PlantStoreClient } from '../../../../adapters/http-client/index.js'
import { authenticationUnavailable, INT64_MAX, insufficientScope, type PlantStore } from '../../../../core/index.js'
import { expectLeftTag, expectRight } from '../../../support/either.js'
import { authenticatorAnswering, unavailablePlantStore } from '../../../support/fakes.js'
import { startTestApp, TOKEN, type TestApp } from '../../../support/http-app.js'
import { plant } from '../../../support/plants.js'
import { finalResponses, rawExchange } from '../../../support/raw-http.js'

/** A fetch that records what the client sent and may change the request on its way. */
const recordingFetch = (change: (init: RequestInit) => RequestInit = (init) => init) => {
  const sent: Array<{ url: string; init: RequestInit }> = []
  const send: typeof fetch = (input, init = {}) => {
    sent.push({ url: String(input as string), init })
    return fetch(input, change(init))
  }
  return { sent, fetch: send }
}

/** A loopback server that answers every request with what `respond` writes. */
const startStub = async (respond: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> => {
  const server = createServer(respond)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

const stopStub = async (server: Server): Promise<void> => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}


/** A request as the client made it, for a transport that changes it on its way. */
interface OnTheWire {
  readonly requestLine: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * A fetch that sends the client's request over a raw socket after `change` (a proxy that rewrote
 * it, say), and hands the client the service's real answer: for the statuses no request of the
 * client's own provokes.
 */
const rewritingFetch =
  (change: (request: OnTheWire) => OnTheWire): typeof fetch =>
  async (input, init = {}) => {
    const url = new URL(String(input as string))
    const body = String(init.body ?? '')
    const sent = change({
      requestLine: `${init.method ?? 'GET'} ${url.pathname} HTTP/1.1`,
      headers: {
        Host: url.host,
        ...Object.fromEntries(new Headers(init.headers).entries()),
        'Content-Length': String(Buffer.byteLength(body)),
        Connection: 'close',
      },
      body,
    })
    const head = [sent.requestLine, ...Object.entries(sent.headers).map(([name, value]) => `${name}: ${value}`)].join('\r\n')
    const [answer] = finalResponses(await rawExchange(url.origin, `${head}\r\n\r\n${sent.body}`))
    if (answer === undefined) throw new TypeError('fetch failed: no answer')
    return new Response(answer.body, { status: answer.status, headers: answer.headers })
  }

describe('plant-store/client against the real service', function () {
  this.timeout(20_000)
  let app: TestApp | undefined
  const serve = async (overrides: Parameters<typeof startTestApp>[0] = {}): Promise<TestApp> => {
    app = await startTestApp(overrides)
    return app
  }
  const clientOf = (url: string, extra: Partial<Parameters<typeof createPlantStoreClient>[0]> = {}): PlantStoreClient =>
    createPlantStoreClient({ baseUrl: url, token: TOKEN, ...extra })
  afterEach(async function () {
    await app?.close()
    app = undefined
  })

  describe('int64 ids travel exactly', function () {
    it('creates 2^63 - 1, replays it, and gets a conflict for another name while 2^63 - 2 stays free', async function () {
      const memory = makeInMemoryPlantStore()
      const { url } = await serve({ plantStore: memory })
      const recorder = recordingFetch()
      const client = clientOf(url, { fetch: recorder.fetch })

      expect(expectRight(await client.createPlant({ id: INT64_MAX, name: 'Monstera', tag: 'aroid' })())).to.deep.equal({
        name: 'Monstera',
        tag: 'aroid',
      })
      expect(recorder.sent[0]?.init.body).to.equal('{"id":9223372036854775807,"name":"Monstera","tag":"aroid"}')
      expect(memory.find(INT64_MAX)).to.deep.equal(plant(INT64_MAX, 'Monstera', 'aroid'))

      expect(expectRight(await client.createPlant({ id: 9223372036854775807n, name: 'Monstera', tag: 'aroid' })())).to.deep.equal({
        name: 'Monstera',
        tag: 'aroid',
      })
      const conflict = expectLeftTag(await client.createPlant({ id: INT64_MAX, name: 'Fern' })(), 'PlantConflict')
      expect(conflict.id).to.equal(INT64_MAX)

      expect(memory.find(9223372036854775806n)).to.equal(undefined)
      expect(memory.all()).to.deep.equal([plant(INT64_MAX, 'Monstera', 'aroid')])
      expectRight(await client.createPlant({ id: 9223372036854775806n, name: 'Fern' })())
      expect(memory.find(9223372036854775806n)).to.deep.equal(plant(9223372036854775806n, 'Fern'))
    })

    it('keeps 2^53 and 2^53 + 1 apart, and -2^63 exact', async function () {
      const memory = makeInMemoryPlantStore()
      const client = clientOf((await serve({ plantStore: memory })).url)
      for (const id of [2n ** 53n, 2n ** 53n + 1n, -(2n ** 63n)]) expectRight(await client.createPlant({ id, name: `${id}` })())
      expect(memory.all().map((p) => p.id)).to.have.members([2n ** 53n, 2n ** 53n + 1n, -(2n ** 63n)])
    })

    it('sends Unicode names and tags as they are, and serves a BASE_PATH with or without a trailing slash', async function () {
      const memory = makeInMemoryPlantStore()
      const { url } = await serve({ plantStore: memory, basePath: '/api/v1' })
      const created = await createPlantStoreClient({ baseUrl: `${url}/api/v1/`, token: TOKEN }).createPlant({
        id: 1n,
        name: 'Ficus "lyrata" \\ 🌿',
        tag: 'line\nbreak',
      })()
      expect(expectRight(created)).to.deep.equal({ name: 'Ficus "lyrata" \\ 🌿', tag: 'line\nbreak' })
      expect(memory.find(1n)).to.deep.equal(plant(1n, 'Ficus "lyrata" \\ 🌿', 'line\nbreak'))
    })
  })

  describe('the Promise form, client.promises', function () {
    it('creates a plant when called, without a task to run, and answers its refusals as a Left, never a rejection', async function () {
      const { url } = await serve()
      const client = clientOf(url)
      const pending = client.promises.createPlant({ id: 9007199254740993n, name: 'Monstera' })
      expect(pending).to.be.instanceOf(Promise)
      expect(await pending).to.deep.equal(E.right({ name: 'Monstera' }))
      expect((app?.deps.plantStore as InMemoryPlantStore).find(9007199254740993n)).to.deep.equal(plant(9007199254740993n, 'Monstera'))
      const conflict = await client.promises.createPlant({ id: 9007199254740993n, name: 'Fern' })
      expect(E.isLeft(conflict) && conflict.left._tag).to.equal('PlantConflict')
      const unreachable = await createPlantStoreClient({ baseUrl: 'http://127.0.0.1:1', token: TOKEN }).promises.createPlant({ id: 1n, name: 'x' })
      expect(E.isLeft(unreachable) && unreachable.left._tag).to.equal('TransportFailure')
    })
  })

  describe('each error status becomes its domain error', function () {
    it('400: InvalidInput with the fields the service named', async function () {
      const { url } = await serve()
      // The client checks fields first, so only a body changed on its way reaches a 400.
      const tampered = recordingFetch((init) => ({ ...init, body: '{"id":1.5,"tag":null}' }))
      const invalid = expectLeftTag(await clientOf(url, { fetch: tampered.fetch }).createPlant({ id: 1n, name: 'x' })(), 'InvalidInput')
      expect(invalid.violations).to.deep.equal([
        { path: 'id', expected: 'an integer from -9223372036854775808 to 9223372036854775807, not a number with a fraction' },
        { path: 'name', expected: 'a string', missing: true },
        { path: 'tag', expected: 'a string, not null' },
      ])
    })

    it('InvalidInput without a request for fields the core codec refuses', async function () {
      const { url } = await serve()
      const recorder = recordingFetch()
      const client = clientOf(url, { fetch: recorder.fetch })
      const invalid = expectLeftTag(await client.createPlant({ id: 2n ** 63n, name: 'x\uD800' })(), 'InvalidInput')
      expect(invalid.violations.map((v) => v.path)).to.deep.equal(['id', 'name'])
      expect(recorder.sent).to.deep.equal([])
    })

    it('401 without a token: Unauthenticated, Missing, with the service message', async function () {
      const { url } = await serve()
      const stripped = recordingFetch((init) => ({ ...init, headers: { 'Content-Type': 'application/json' } }))
      const error = expectLeftTag(await clientOf(url, { fetch: stripped.fetch }).createPlant({ id: 1n, name: 'x' })(), 'Unauthenticated')
      expect(error.reason).to.equal('Missing')
      expect(error.detail).to.equal('Send an access token as "Authorization: Bearer <token>".')
    })

    it('401 for an unknown token: Unauthenticated, Invalid', async function () {
      const { url } = await serve()
      const error = expectLeftTag(await clientOf(url, { token: 'unknown-token-0123456789' }).createPlant({ id: 1n, name: 'x' })(), 'Unauthenticated')
      expect(error.reason).to.equal('Invalid')
      expect(error.detail).to.be.a('string').and.not.include('unknown-token-0123456789')
    })

    it('a token that is not a bearer token: Unauthenticated, Invalid, without a request', async function () {
      const { url } = await serve()
      const recorder = recordingFetch()
      const error = expectLeftTag(
        await clientOf(url, { token: 'two words', fetch: recorder.fetch }).createPlant({ id: 1n, name: 'x' })(),
        'Unauthenticated',
      )
      expect(error.reason).to.equal('Invalid')
      expect(recorder.sent).to.deep.equal([])
    })

    it('403: InsufficientScope naming the scope', async function () {
      const { url } = await serve({ authenticator: authenticatorAnswering(E.left(insufficientScope('plants:write'))) })
      const error = expectLeftTag(await clientOf(url).createPlant({ id: 1n, name: 'x' })(), 'InsufficientScope')
      expect(error.requiredScope).to.equal('plants:write')
    })

    it('413: ServiceError with the limit in its message', async function () {
      const { url } = await serve({ bodyLimitBytes: 100 })
      const error = expectLeftTag(await clientOf(url).createPlant({ id: 1n, name: 'x'.repeat(200) })(), 'ServiceError')
      expect(error).to.deep.equal({ _tag: 'ServiceError', status: 413, message: 'The request body is larger than 100 bytes.' })
    })

    it('503 from storage: StorageUnavailable with Retry-After', async function () {
      const { url } = await serve({ plantStore: unavailablePlantStore(new Error('down')) })
      const error = expectLeftTag(await clientOf(url).createPlant({ id: 1n, name: 'x' })(), 'StorageUnavailable')
      expect(error.retryAfterSeconds).to.equal(1)
      expect(error.cause).to.deep.equal({ status: 503, message: 'Storage is unavailable; try again shortly.' })
    })

    it('507: StorageFull naming the bound, while a stored plant is still answered', async function () {
      const { url } = await serve({ plantStore: makeInMemoryPlantStore({ maxPlants: 2, maxBytes: 1024 ** 2 }) })
      const client = clientOf(url)
      for (const id of [1n, 2n]) expect(expectRight(await client.createPlant({ id, name: 'x' })())).to.deep.equal({ name: 'x' })
      expect(expectLeftTag(await client.createPlant({ id: 3n, name: 'x' })(), 'StorageFull').limit).to.equal('2 plants')
      expect(expectRight(await client.createPlant({ id: 2n, name: 'x' })())).to.deep.equal({ name: 'x' })
    })

    it('503 from the identity provider: AuthenticationUnavailable with Retry-After', async function () {
      const { url } = await serve({ authenticator: authenticatorAnswering(E.left(authenticationUnavailable(new Error('jwks')))) })
      const error = expectLeftTag(await clientOf(url).createPlant({ id: 1n, name: 'x' })(), 'AuthenticationUnavailable')
      expect(error.retryAfterSeconds).to.equal(1)
    })

    it('500: ServiceError with the generic message', async function () {
      const broken: PlantStore = {
        insertUnlessExists: () => () => Promise.reject(new TypeError('a bug')),
        checkReady: () => () => Promise.resolve(E.right(undefined)),
      }
      const { url } = await serve({ plantStore: broken })
      const error = expectLeftTag(await clientOf(url).createPlant({ id: 1n, name: 'x' })(), 'ServiceError')
      expect(error.status).to.equal(500)
      expect(error.message).to.equal('Something went wrong on our side; the failure has been logged.')
    })

    it('404 for a baseUrl without the BASE_PATH: ServiceError', async function () {
      const { url } = await serve({ basePath: '/api/v1' })
      expect(expectLeftTag(await clientOf(url).createPlant({ id: 1n, name: 'x' })(), 'ServiceError').status).to.equal(404)
    })
  })

  describe('answers its own requests never provoke, met through a transport that changed them', function () {
    const cases: ReadonlyArray<{ status: number; change: (request: OnTheWire) => OnTheWire }> = [
      { status: 400, change: (r) => ({ ...r, body: '{"id": 1,'.padEnd(r.body.length, ' ') }) },
      { status: 405, change: (r) => ({ ...r, requestLine: r.requestLine.replace(/^POST/, 'PUT') }) },
      { status: 408, change: (r) => ({ ...r, body: r.body.slice(0, 3) }) },
      { status: 415, change: (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'text/plain' } }) },
      { status: 417, change: (r) => ({ ...r, headers: { ...r.headers, Expect: 'teapot' } }) },
      { status: 431, change: (r) => ({ ...r, headers: { ...r.headers, 'X-Padding': 'x'.repeat(64 * 1024) } }) },
      { status: 501, change: (r) => ({ ...r, requestLine: 'CONNECT 127.0.0.1:9 HTTP/1.1' }) },
    ]
    for (const { status, change } of cases) {
      it(`${status}: ServiceError with the status and the service's message`, async function () {
        app = await startTestApp({}, { requestTimeoutMs: 300, headersTimeoutMs: 300 })
        const client = clientOf(app.url, { fetch: rewritingFetch(change) })
        const error = expectLeftTag(await client.createPlant({ id: 1n, name: 'x' })(), 'ServiceError')
        expect(error.status).to.equal(status)
        expect(error.message).to.be.a('string').and.not.equal('')
      })
    }
  })

  describe('no answer, or an answer the API does not send', function () {
    it('a server that is down: TransportFailure, Unreachable', async function () {
      const { url } = await serve()
      await app?.close()
      app = undefined
      const error = expectLeftTag(await clientOf(url).createPlant({ id: 1n, name: 'x' })(), 'TransportFailure')
      expect(error.reason).to.equal('Unreachable')
    })

    it('a server that does not answer in time: TransportFailure, Timeout', async function () {
      const stub = await startStub(() => undefined)
      try {
        const error = expectLeftTag(await clientOf(stub.url, { timeoutMs: 200 }).createPlant({ id: 1n, name: 'x' })(), 'TransportFailure')
        expect(error.reason).to.equal('Timeout')
      } finally {
        await stopStub(stub.server)
      }
    })

    const unexpected: ReadonlyArray<readonly [string, number, Record<string, string>, string]> = [
      ['a 200 that is not JSON', 200, { 'Content-Type': 'text/html' }, '<html>ok</html>'],
      ['a 200 that is not a Plant', 200, { 'Content-Type': 'application/json' }, '{"nom":"x"}'],
      ['a 200 whose name has a lone surrogate', 200, { 'Content-Type': 'application/json' }, '{"name":"\\ud800"}'],
      ['a 502 page from a proxy', 502, { 'Content-Type': 'text/html' }, '<h1>Bad Gateway</h1>'],
      ['an Error document whose status disagrees', 409, { 'Content-Type': 'application/json' }, '{"error":400,"message":"x"}'],
      ['a 403 that names no scope', 403, { 'Content-Type': 'application/json' }, '{"error":403,"message":"no"}'],
      ['a redirect', 302, { Location: 'http://127.0.0.1:1/', 'Content-Type': 'application/json' }, '{}'],
      ['a status the API never answers', 418, { 'Content-Type': 'application/json' }, '{"error":418,"message":"teapot"}'],
    ]
    for (const [label, status, headers, body] of unexpected) {
      it(`${label}: UnexpectedResponse`, async function () {
        const stub = await startStub((_request, response) => {
          response.writeHead(status, headers).end(body)
        })
        try {
          const error = expectLeftTag(await clientOf(stub.url).createPlant({ id: 1n, name: 'x' })(), 'UnexpectedResponse')
          expect(error.status).to.equal(status)
        } finally {
          await stopStub(stub.server)
        }
      })
    }

    it('builds a task without sending anything until it runs', async function () {
      const recorder = recordingFetch()
      const task = clientOf('http://127.0.0.1:1', { fetch: recorder.fetch }).createPlant({ id: 1n, name: 'x' })
      expect(recorder.sent).to.deep.equal([])
      expectLeftTag(await task(), 'TransportFailure')
      expect(recorder.sent).to.have.length(1)
    })

    it('refuses a baseUrl that is not an absolute http(s) URL when the client is made', function () {
      for (const baseUrl of ['plants.example.com', 'ftp://127.0.0.1/', '']) {
        expect(() => createPlantStoreClient({ baseUrl, token: TOKEN })).to.throw(TypeError, /baseUrl/)
      }
    })
  })
})

