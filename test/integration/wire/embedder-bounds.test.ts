import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { createHttpApp, createHttpServer, DEFAULT_HTTP_SERVER_LIMITS, type HttpAppDeps } from '../../../adapters/http/index.js'
import { exactJsonParser, parseExactJson } from '../../../wire/exact-json/index.js'
import { makeInMemoryPlantStore } from '../../../adapters/in-memory/index.js'
import { makeJwtAuthenticator, type JwksKeySource } from '../../../adapters/jwt/index.js'
import { createPlantStoreClient } from '../../../adapters/http-client/index.js'
import { openMongoPlantStore } from '../../../adapters/mongodb/index.js'
import { makeStaticTokenAuthenticator } from '../../../adapters/static-tokens/index.js'
import { NewPlant } from '../../../core/index.js'
import { TOKEN } from '../../support/http-app.js'

// A bound an embedder computes (Number(process.env.X) of a variable that is not set is NaN) or
// passes from JavaScript as a string bounded nothing, silently: `count >= NaN` is never true. Each
// adapter refuses such a number when it is built, naming the option; the bounds it is given
// otherwise still hold.

const silent = { info: () => {}, warn: () => {}, error: () => {} }
const appDeps = (): HttpAppDeps => ({
  plantStore: makeInMemoryPlantStore(),
  authenticator: makeStaticTokenAuthenticator([TOKEN]),
  log: silent,
  basePath: '',
  bodyLimitBytes: 1024,
})
const NOT_WHOLE_NUMBERS: ReadonlyArray<unknown> = [Number.NaN, -1, 0.5, Number.POSITIVE_INFINITY, '100', 10n, undefined, null]
const shown = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : typeof value === 'bigint' ? `${value}n` : String(value))

describe('numbers an embedder gives an adapter', function () {
  describe('the in-memory store', function () {
    for (const option of ['maxPlants', 'maxBytes'] as const) {
      for (const value of [Number.NaN, -5, 1.5, '10', Number.POSITIVE_INFINITY]) {
        it(`refuses ${option}: ${shown(value)}, naming it`, function () {
          expect(() => makeInMemoryPlantStore({ [option]: value as number })).to.throw(RangeError, new RegExp(`makeInMemoryPlantStore: ${option} must be a whole number`))
        })
      }
    }

    it('keeps the bound it is given, and takes undefined for the default', async function () {
      // From JavaScript, as the type does not allow it.
      const store = makeInMemoryPlantStore({ maxPlants: 1, maxBytes: undefined as unknown as number })
      const plant = (id: bigint) => NewPlant.decode({ id, name: 'Fern' })
      const [first, second] = [plant(1n), plant(2n)]
      if (E.isLeft(first) || E.isLeft(second)) throw new Error('the plants must decode')
      expect(E.isRight(await store.insertUnlessExists(first.right)())).to.equal(true)
      const full = await store.insertUnlessExists(second.right)()
      expect(E.isLeft(full) && full.left._tag).to.equal('StorageFull')
    })
  })

  describe('the HTTP app', function () {
    // undefined is the default's, as for every defaulted option.
    for (const value of NOT_WHOLE_NUMBERS.filter((value) => value !== undefined)) {
      it(`refuses bodyLimitBytes: ${shown(value)}`, function () {
        expect(() => createHttpApp({ ...appDeps(), bodyLimitBytes: value as number })).to.throw(RangeError, /createHttpApp: bodyLimitBytes must be a whole number from 1/)
      })
    }

    it('refuses answerWithinMs and readinessMaxAgeMs out of range, a timer longer than Node keeps among them', function () {
      for (const answerWithinMs of [0, Number.NaN, 2 ** 31]) {
        expect(() => createHttpApp({ ...appDeps(), answerWithinMs }), String(answerWithinMs)).to.throw(RangeError, /answerWithinMs must be a whole number from 1 to 2147483647/)
      }
      for (const readinessMaxAgeMs of [-1, Number.NaN, 2 ** 31]) {
        expect(() => createHttpApp({ ...appDeps(), readinessMaxAgeMs }), String(readinessMaxAgeMs)).to.throw(RangeError, /readinessMaxAgeMs must be a whole number from 0/)
      }
    })

    it('refuses JSON limits that bound nothing, when the app is built rather than on each request', function () {
      expect(() => createHttpApp({ ...appDeps(), jsonLimits: { maxDepth: Number.NaN, maxNumberLength: 100 } })).to.throw(RangeError, /JsonLimits: maxDepth/)
      expect(() => createHttpApp({ ...appDeps(), jsonLimits: { maxDepth: 32, maxNumberLength: 0 } })).to.throw(RangeError, /JsonLimits: maxNumberLength/)
    })

    it('builds with bounds in range: the least of each, and no answerWithinMs', function () {
      expect(() => createHttpApp({ ...appDeps(), bodyLimitBytes: 1, readinessMaxAgeMs: 0, jsonLimits: { maxDepth: 1, maxNumberLength: 1 } })).not.to.throw()
    })
  })

  describe('the HTTP server', function () {
    const app = createHttpApp(appDeps())
    for (const option of ['maxConnections', 'maxConnectionsPerAddress', 'maxRequestsWaiting', 'sendTimeoutMs', 'keepAliveTimeoutMs', 'headersTimeoutMs'] as const) {
      it(`refuses ${option}: NaN, naming it`, function () {
        expect(() => createHttpServer(app, { ...DEFAULT_HTTP_SERVER_LIMITS, [option]: Number.NaN })).to.throw(RangeError, new RegExp(`createHttpServer: ${option} must be a whole number`))
      })
    }

    it('refuses a request timeout shorter than the headers timeout, and a timer longer than Node keeps', function () {
      const limits = { ...DEFAULT_HTTP_SERVER_LIMITS, headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 }
      expect(() => createHttpServer(app, limits)).to.throw(RangeError, /requestTimeoutMs must be a whole number from 5000/)
      expect(() => createHttpServer(app, { ...DEFAULT_HTTP_SERVER_LIMITS, sendTimeoutMs: 2 ** 31 })).to.throw(RangeError, /sendTimeoutMs/)
    })

    it('is made with the defaults, not listening', function () {
      const server = createHttpServer(app)
      expect(server.listening).to.equal(false)
    })
  })

  describe('the exact JSON reader, called alone', function () {
    it('throws on limits that bound nothing, and reads within good ones', function () {
      expect(() => parseExactJson('{"a":1}', { maxDepth: Number.NaN, maxNumberLength: 100 })).to.throw(RangeError, /maxDepth/)
      expect(parseExactJson('[[1]]', { maxDepth: 1, maxNumberLength: 100 })).to.deep.equal(E.left('the request body is nested deeper than 1 levels'))
    })

    it('checks the limits once, when a parser for many texts is made', function () {
      expect(() => exactJsonParser({ maxDepth: 32, maxNumberLength: -1 })).to.throw(RangeError, /maxNumberLength/)
      const parse = exactJsonParser({ maxDepth: 2, maxNumberLength: 3 })
      expect(parse('{"a":[1]}')).to.deep.equal(E.right({ a: [1n] }))
      expect(parse('[1234]')).to.deep.equal(E.left('the request body holds a number longer than 3 characters'))
    })
  })

  describe('the MongoDB store', function () {
    it('answers InvalidMongoSettings naming a timeout that is not a whole number of milliseconds in range', function () {
      for (const [name, value] of [['operationMs', Number.NaN], ['connectMs', 0], ['readinessMs', 2 ** 31], ['serverSelectionMs', '3000']] as const) {
        const opened = openMongoPlantStore({ uri: 'mongodb://127.0.0.1:1', dbName: 'bounds', timeouts: { [name]: value as number } })
        expect(E.isLeft(opened) && opened.left.message, name).to.match(new RegExp(`openMongoPlantStore: timeouts\\.${name} must be a whole number from 1 to 2147483647`))
      }
    })

    it('opens with timeouts in range, without connecting', async function () {
      const opened = openMongoPlantStore({ uri: 'mongodb://127.0.0.1:1', dbName: 'bounds', timeouts: { operationMs: 1 } })
      if (E.isLeft(opened)) throw new Error(opened.left.message)
      await opened.right.close()
    })
  })

  describe('the JWT authenticator', function () {
    const jwks = (options: Partial<JwksKeySource>): JwksKeySource => ({ _tag: 'Jwks', url: new URL('http://127.0.0.1:1/jwks'), algorithms: ['RS256'], ...options })
    const claims = { issuer: 'https://issuer.test', audience: 'plants', clockToleranceSeconds: 30 }

    it('refuses a key set bound or a delay that is not a whole number in range, naming it', function () {
      for (const [option, value] of [['maxKeys', Number.NaN], ['maxKeySetBytes', 0], ['maxFetchesPerMinute', '6'], ['timeoutMs', 2 ** 31], ['refreshIntervalMs', -1], ['cooldownMs', 1.5]] as const) {
        expect(() => makeJwtAuthenticator({ ...claims, keys: jwks({ [option]: value as number }) }), option).to.throw(RangeError, new RegExp(`makeJwtAuthenticator: keys\\.${option} must be a whole number`))
      }
    })

    it('refuses a clock tolerance that is negative or not a number', function () {
      for (const clockToleranceSeconds of [-1, Number.NaN, '30']) {
        expect(() => makeJwtAuthenticator({ ...claims, clockToleranceSeconds: clockToleranceSeconds as number, keys: jwks({}) })).to.throw(RangeError, /clockToleranceSeconds/)
      }
    })

    it('is made with options in range, those given as undefined at their defaults', function () {
      expect(() => makeJwtAuthenticator({ ...claims, clockToleranceSeconds: 0, keys: jwks({ cooldownMs: 0, maxKeys: 1, timeoutMs: undefined as unknown as number }) })).not.to.throw()
    })
  })

  describe('the HTTP client', function () {
    it('refuses a timeout that is not a whole number of milliseconds in range, rather than report every call unreachable', function () {
      for (const timeoutMs of [Number.NaN, 0, 2 ** 31, '5000']) {
        expect(() => createPlantStoreClient({ baseUrl: 'http://127.0.0.1:1', token: TOKEN, timeoutMs: timeoutMs as number })).to.throw(RangeError, /createPlantStoreClient: timeoutMs must be a whole number from 1 to 2147483647/)
      }
      expect(() => createPlantStoreClient({ baseUrl: 'http://127.0.0.1:1', token: TOKEN, timeoutMs: 1 })).not.to.throw()
    })
  })
})
