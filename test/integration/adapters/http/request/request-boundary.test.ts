import { expect } from 'chai'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { connect } from 'node:net'
import { once } from 'node:events'
import type { HttpObserver, Logger } from '../../../../../adapters/http/index.js'
import { storageUnavailable, type PlantStore } from '../../../../../core/index.js'
import { makeInMemoryPlantStore } from '../../../../../adapters/in-memory/index.js'
import { postPlant, startTestApp, type TestApp } from '../../../../support/http-app.js'
import { expectErrorDocument, expectPlant } from '../../../../support/responses.js'

const GENERIC_500 = 'Something went wrong on our side; the failure has been logged.'

const circular = (): unknown => {
  const value: Record<string, unknown> = { name: 'loop' }
  value['self'] = value
  return value
}

// Values an adapter may throw or reject with, none of them an Error, some hostile to a logger.
const STRANGE_VALUES: ReadonlyArray<readonly [string, () => unknown]> = [
  ['a circular object', circular],
  ['null', () => null],
  ['undefined', () => undefined],
  [
    'an object with a getter that throws',
    () =>
      Object.defineProperty({}, 'message', {
        enumerable: true,
        get: () => {
          throw new Error('getter exploded')
        },
      }),
  ],
  ['a BigInt', () => 12345678901234567890n],
  [
    'an object whose toString throws',
    () => ({
      toString: () => {
        throw new Error('toString exploded')
      },
    }),
  ],
  [
    'a Proxy that throws on every trap',
    () =>
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('proxy trap')
          },
          ownKeys: () => {
            throw new Error('proxy trap')
          },
          getPrototypeOf: () => {
            throw new Error('proxy trap')
          },
        },
      ),
  ],
  ['an Error whose cause is circular', () => new Error('wrapped', { cause: circular() })],
]

const storeFailingWith = (failure: () => unknown, how: 'rejects' | 'throws'): PlantStore => ({
  insertUnlessExists: () =>
    how === 'throws'
      ? (() => {
          throw failure()
        })()
      : () => Promise.reject(failure()),
  checkReady: () => TE.right(undefined),
})

const linesOf = (app: TestApp, requestId: string) => app.log.lines.filter((line) => line['requestId'] === requestId)

describe('the error boundary and the request log', function () {
  let app: TestApp | undefined
  afterEach(async () => {
    await app?.close()
    app = undefined
  })

  describe('whatever an adapter throws or rejects with ends as a 500 Error document and one logged cause', function () {
    for (const [label, value] of STRANGE_VALUES) {
      for (const how of ['rejects', 'throws'] as const) {
        it(`storage that ${how} with ${label}`, async function () {
          app = await startTestApp({ plantStore: storeFailingWith(value, how) })
          const response = await postPlant(app.url, '{"id":1,"name":"x"}', { 'X-Request-Id': `strange-${how}` })
          expect(await expectErrorDocument(response, 500)).to.equal(GENERIC_500)
          expect(response.headers.get('x-request-id')).to.equal(`strange-${how}`)
          const lines = linesOf(app, `strange-${how}`)
          expect(lines).to.have.length(1)
          expect(lines[0]).to.include({ level: 'error', status: 500, route: '/plants', method: 'POST' })
          expect(lines[0]?.['cause']).to.be.a('string').and.not.equal('')
        })
      }
    }

    it('a storage outage whose cause is circular is a 503 Error document, logged once as a warning', async function () {
      const down: PlantStore = {
        insertUnlessExists: () => TE.left(storageUnavailable(circular())),
        checkReady: () => TE.left(storageUnavailable(12n)),
      }
      app = await startTestApp({ plantStore: down })
      const response = await postPlant(app.url, '{"id":1,"name":"x"}', { 'X-Request-Id': 'outage-1' })
      await expectErrorDocument(response, 503)
      expect(response.headers.get('retry-after')).to.equal('1')
      expect(linesOf(app, 'outage-1')).to.have.length(1)
      expect(linesOf(app, 'outage-1')[0]).to.include({ level: 'warn', status: 503 })
      await expectErrorDocument(await fetch(`${app.url}/readyz`), 503)
    })

    it('a body that cannot be serialised is a 500 Error document, not text/plain', async function () {
      const garbled: PlantStore = {
        insertUnlessExists: (plant) => TE.right({ _tag: 'Inserted', plant: { ...plant, name: 7n as never } }),
        checkReady: () => TE.right(undefined),
      }
      app = await startTestApp({ plantStore: garbled })
      const response = await postPlant(app.url, '{"id":1,"name":"x"}', { 'X-Request-Id': 'bigint-body' })
      expect(await expectErrorDocument(response, 500)).to.equal(GENERIC_500)
      expect(linesOf(app, 'bigint-body')).to.have.length(1)
      expect(String(linesOf(app, 'bigint-body')[0]?.['cause'])).to.include('BigInt')
    })
  })

  describe('the logger and the observer cannot fail a request', function () {
    const throwingLogger: Logger = {
      info: () => {
        throw new Error('disk full')
      },
      warn: () => {
        throw new Error('disk full')
      },
      error: () => {
        throw new Error('disk full')
      },
    }
    const throwingObserver: HttpObserver = {
      requestFinished: () => {
        throw new Error('metrics broken')
      },
    }

    it('a logger that throws on every line: the answers are unchanged', async function () {
      app = await startTestApp({ log: throwingLogger, observer: throwingObserver })
      await expectPlant(await postPlant(app.url, '{"id":1,"name":"x"}'), { name: 'x' })
      await expectErrorDocument(await postPlant(app.url, '{"id":1,"name":"y"}'), 409)
      await expectErrorDocument(await fetch(`${app.url}/nowhere`), 404)
    })

    it('a logger that throws, with a storage defect: still the 500 Error document', async function () {
      app = await startTestApp({ log: throwingLogger, plantStore: storeFailingWith(circular, 'rejects') })
      expect(await expectErrorDocument(await postPlant(app.url, '{"id":1,"name":"x"}'), 500)).to.equal(GENERIC_500)
    })

    it('an observer that throws: the answer is unchanged and the failure is logged with the request id', async function () {
      app = await startTestApp({ observer: throwingObserver })
      const response = await postPlant(app.url, '{"id":1,"name":"x"}', { 'X-Request-Id': 'obs-1' })
      await expectPlant(response, { name: 'x' })
      expect(linesOf(app, 'obs-1').map((line) => line['msg'])).to.have.members(['request observer failed', 'request'])
    })
  })

  describe('the line of a refusal', function () {
    it('logs a /readyz 503 while draining as a shutdown at info, with no cause, not as an outage', async function () {
      app = await startTestApp({ draining: () => true })
      const response = await fetch(`${app.url}/readyz`)
      await expectErrorDocument(response, 503)
      const line = app.log.lines.find((l) => l['requestId'] === response.headers.get('x-request-id'))
      expect(line).to.include({ level: 'info', msg: 'request refused: shutting down', route: '/readyz', status: 503 })
      expect(line).to.not.have.property('cause')
    })

    it('logs a full store (507) as the bound doing its work, a warning with no cause, not as a defect', async function () {
      app = await startTestApp({ plantStore: makeInMemoryPlantStore({ maxPlants: 1, maxBytes: 1024 ** 2 }) })
      await expectPlant(await postPlant(app.url, '{"id":1,"name":"x"}'), { name: 'x' })
      const response = await postPlant(app.url, '{"id":2,"name":"y"}')
      await expectErrorDocument(response, 507)
      const line = app.log.lines.find((l) => l['requestId'] === response.headers.get('x-request-id'))
      expect(line).to.include({ level: 'warn', msg: 'request refused: storage full', status: 507 })
      expect(line).to.not.have.property('cause')
    })
  })

  describe('request ids', function () {
    it('echoes a well-formed X-Request-Id and logs the request under it, with route, status, duration and subject', async function () {
      app = await startTestApp({ basePath: '/api/v1' })
      const response = await fetch(`${app.url}/api/v1/plants`, {
        method: 'POST',
        headers: {
          Authorization: 'Bearer test-token-0123456789abcdef',
          'Content-Type': 'application/json',
          'X-Request-Id': 'req-42:a/b+c=@~_.',
        },
        body: '{"id":1,"name":"x"}',
      })
      expect(response.status).to.equal(200)
      expect(response.headers.get('x-request-id')).to.equal('req-42:a/b+c=@~_.')
      const [line, ...more] = linesOf(app, 'req-42:a/b+c=@~_.')
      expect(more).to.have.length(0)
      expect(line).to.include({ level: 'info', method: 'POST', route: '/api/v1/plants', status: 200, subject: 'static-token-1' })
      expect(line?.['ms']).to.be.a('number').at.least(0)
      expect(line).to.not.have.property('path')
    })

    for (const [label, header] of [
      ['too long', 'a'.repeat(129)],
      ['with a space', 'two words'],
      ['with a quote', 'x"y'],
      ['with non-ASCII', 'caf\u00e9'],
    ] as const) {
      it(`replaces an X-Request-Id ${label} with a fresh UUID`, async function () {
        app = await startTestApp()
        const response = await fetch(`${app.url}/healthz`, { headers: { 'X-Request-Id': header } })
        const id = response.headers.get('x-request-id') ?? ''
        expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        expect(linesOf(app, id)).to.have.length(1)
      })
    }

    it('accepts 128 characters', async function () {
      app = await startTestApp()
      const id = 'b'.repeat(128)
      expect((await fetch(`${app.url}/healthz`, { headers: { 'X-Request-Id': id } })).headers.get('x-request-id')).to.equal(id)
    })

    it('gives every answer an id, distinct per request: errors, 404, 405, probes, the document, the docs page', async function () {
      app = await startTestApp()
      const responses = await Promise.all([
        postPlant(app.url, '{"id":1,"name":"x"}', { Authorization: '' }),
        postPlant(app.url, '{"id":1', {}),
        fetch(`${app.url}/nowhere`),
        fetch(`${app.url}/plants`),
        fetch(`${app.url}/healthz`),
        fetch(`${app.url}/readyz`),
        fetch(`${app.url}/openapi.json`),
        fetch(`${app.url}/docs`),
      ])
      const ids = responses.map((response) => response.headers.get('x-request-id'))
      expect(responses.map((response) => response.status)).to.deep.equal([401, 400, 404, 405, 200, 200, 200, 200])
      for (const id of ids) expect(id).to.be.a('string').with.length.above(0)
      expect(new Set(ids).size).to.equal(ids.length)
      // Each answer's line, found by the id the answer carried.
      const logged = app.log.lines.filter((line) => line['msg'] === 'request' && ids.includes(line['requestId'] as string))
      expect(logged.map((line) => line['route'])).to.have.members([
        '/plants',
        '/plants',
        'unmatched',
        '/plants',
        '/healthz',
        '/readyz',
        '/openapi.json',
        '/docs',
      ])
    })

    it('gives an id to the Error documents of requests the HTTP parser refuses', async function () {
      app = await startTestApp()
      const { port } = new URL(app.url)
      const socket = connect(Number(port), '127.0.0.1')
      await once(socket, 'connect')
      socket.end('NOT A REQUEST\r\n\r\n')
      let text = ''
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      await once(socket, 'close')
      expect(text).to.match(/^HTTP\/1\.1 400 /)
      expect(text).to.match(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/)
    })
  })
})
