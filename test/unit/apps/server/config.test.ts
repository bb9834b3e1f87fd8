import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { loadConfig } from '../../../../apps/server/config.js'
import { expectRight } from '../../../support/either.js'

const refusal = (env: Record<string, string>): ReadonlyArray<string> => {
  const result = loadConfig(env)
  if (E.isRight(result)) expect.fail(`expected the configuration to be refused: ${JSON.stringify(env)}`)
  return result.left
}

describe('configuration from the environment', function () {
  it('has the documented defaults', function () {
    expect(expectRight(loadConfig({}))).to.deep.equal({
      port: 3000,
      host: '127.0.0.1',
      basePath: '',
      corsOrigins: undefined,
      docsPage: true,
      tokens: undefined,
      jwt: undefined,
      storage: { _tag: 'InMemory', limits: { maxPlants: 100_000, maxBytes: 64 * 1024 * 1024 } },
      bodyLimitBytes: 65536,
      jsonLimits: { maxNumberLength: 100, maxDepth: 32 },
      serverLimits: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: 1_000, maxConnectionsPerAddress: 100 },
      shutdown: { drainMs: 5_000, graceMs: 10_000 },
      logLevel: 'info',
      logBufferBytes: 16 * 1024 * 1024,
      metrics: undefined,
    })
  })

  it('treats an empty variable as unset', function () {
    expect(expectRight(loadConfig({ PORT: '', PLANT_STORE_TOKENS: '', MONGODB_URI: '' }))).to.include({ port: 3000, tokens: undefined })
  })

  it('reads every variable', function () {
    const config = expectRight(
      loadConfig({
        PORT: '0',
        HOST: '::1',
        BASE_PATH: '/api/v1',
        PLANT_STORE_TOKENS: 'first-token-0123456789, second-token-0123456789',
        MONGODB_URI: 'mongodb://db.example:27017/?replicaSet=rs0',
        MONGODB_DB: 'plants_prod',
        MONGODB_TIMEOUT_MS: '2500',
        BODY_LIMIT: '1mb',
        HEADERS_TIMEOUT_MS: '2000',
        REQUEST_TIMEOUT_MS: '20000',
        KEEP_ALIVE_TIMEOUT_MS: '65000',
        MAX_CONNECTIONS: '5000',
        SHUTDOWN_DRAIN_MS: '0',
        SHUTDOWN_GRACE_MS: '2500',
        LOG_LEVEL: 'warn',
        METRICS_PORT: '9464',
        METRICS_HOST: '0.0.0.0',
      }),
    )
    expect(config).to.deep.equal({
      port: 0,
      host: '::1',
      basePath: '/api/v1',
      corsOrigins: undefined,
      docsPage: true,
      tokens: ['first-token-0123456789', 'second-token-0123456789'],
      jwt: undefined,
      storage: {
        _tag: 'MongoDb',
        settings: { uri: 'mongodb://db.example:27017/?replicaSet=rs0', dbName: 'plants_prod', timeouts: { operationMs: 2500 } },
      },
      bodyLimitBytes: 1024 * 1024,
      jsonLimits: { maxNumberLength: 100, maxDepth: 32 },
      serverLimits: { headersTimeoutMs: 2_000, requestTimeoutMs: 20_000, keepAliveTimeoutMs: 65_000, maxConnections: 5_000, maxConnectionsPerAddress: 100 },
      shutdown: { drainMs: 0, graceMs: 2_500 },
      logLevel: 'warn',
      logBufferBytes: 16 * 1024 * 1024,
      metrics: { port: 9464, host: '0.0.0.0' },
    })
  })

  const MONGODB_URI = 'mongodb://db.example:27017/?replicaSet=rs0'

  it('makes the grace period no shorter than the storage deadline by default, with MongoDB', function () {
    expect(expectRight(loadConfig({ MONGODB_URI, MONGODB_TIMEOUT_MS: '20000' })).shutdown).to.deep.equal({ drainMs: 5_000, graceMs: 20_000 })
  })

  it('refuses a grace period shorter than the storage deadline with MongoDB, naming SHUTDOWN_GRACE_MS', function () {
    expect(refusal({ MONGODB_URI, MONGODB_TIMEOUT_MS: '20000', SHUTDOWN_GRACE_MS: '10000' })).to.deep.equal([
      'SHUTDOWN_GRACE_MS: expected at least MONGODB_TIMEOUT_MS (20000): a request must be able to finish its storage call before it is cut',
    ])
  })

  it('refuses, with MongoDB, a body limit whose plant would not fit in one document, naming BODY_LIMIT', function () {
    const uri = 'mongodb://127.0.0.1:27017/?replicaSet=rs0'
    expect(refusal({ MONGODB_URI: uri, BODY_LIMIT: '16MiB' })).to.deep.equal([
      "BODY_LIMIT: expected at most 16776192 bytes (16 MiB less 1 KiB) with MONGODB_URI: a larger plant would make a document over MongoDB's 16 MiB limit",
    ])
    expect(expectRight(loadConfig({ MONGODB_URI: uri, BODY_LIMIT: '16776192' })).bodyLimitBytes).to.equal(16_776_192)
    expect(expectRight(loadConfig({ BODY_LIMIT: '16MiB' })).bodyLimitBytes).to.equal(16 * 1024 * 1024)
  })

  it('leaves the grace period alone from the storage deadline without MongoDB', function () {
    expect(expectRight(loadConfig({ MONGODB_TIMEOUT_MS: '20000' })).shutdown).to.deep.equal({ drainMs: 5_000, graceMs: 10_000 })
    expect(expectRight(loadConfig({ SHUTDOWN_GRACE_MS: '1000' })).shutdown).to.deep.equal({ drainMs: 5_000, graceMs: 1_000 })
  })

  it('refuses a request timeout shorter than the headers timeout, naming REQUEST_TIMEOUT_MS', function () {
    expect(refusal({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '10000' })).to.deep.equal([
      'REQUEST_TIMEOUT_MS: expected at least HEADERS_TIMEOUT_MS (20000): the whole request includes its headers',
    ])
  })

  it('serves metrics on 127.0.0.1 unless METRICS_HOST says otherwise, and only when METRICS_PORT is set', function () {
    expect(expectRight(loadConfig({ METRICS_PORT: '0' })).metrics).to.deep.equal({ port: 0, host: '127.0.0.1' })
    expect(expectRight(loadConfig({ METRICS_HOST: '0.0.0.0' })).metrics).to.equal(undefined)
  })

  it('reads CORS_ORIGINS as exact origins, and refuses a path, a trailing slash, a wildcard or another scheme', function () {
    expect(expectRight(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' })).corsOrigins).to.deep.equal([
      'https://app.example.com',
      'http://localhost:5173',
    ])
    for (const bad of ['https://app.example.com/', 'https://app.example.com/path', '*', 'ftp://files.example.com', 'https://App.example.com', 'https://app.example.com:443']) {
      expect(refusal({ CORS_ORIGINS: bad }), bad).to.have.length(1).and.satisfy((problems: ReadonlyArray<string>) => problems[0]?.startsWith('CORS_ORIGINS: expected'))
    }
  })

  it('refuses a LOG_LEVEL or METRICS_PORT it does not know, naming the variable', function () {
    expect(refusal({ LOG_LEVEL: 'verbose', METRICS_PORT: '70000' })).to.have.members([
      'LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent',
      'METRICS_PORT: expected a port number from 0 to 65535 (0 picks a free port)',
    ])
  })

  it('stores in MongoDB database plant_store, with a 5 s deadline, when only MONGODB_URI is set', function () {
    expect(expectRight(loadConfig({ MONGODB_URI: 'mongodb://127.0.0.1:27017' })).storage).to.deep.equal({
      _tag: 'MongoDb',
      settings: { uri: 'mongodb://127.0.0.1:27017', dbName: 'plant_store', timeouts: { operationMs: 5000 } },
    })
  })

  it('reads body limits in bytes or with a unit', function () {
    for (const [text, bytes] of [['65536', 65536], ['64kb', 65536], ['64KiB', 65536], ['2MiB', 2097152], ['10b', 10]] as const) {
      expect(expectRight(loadConfig({ BODY_LIMIT: text })).bodyLimitBytes, text).to.equal(bytes)
    }
  })

  it('bounds in-memory storage by IN_MEMORY_MAX_PLANTS, in plants and in the bytes that follow from them', function () {
    expect(expectRight(loadConfig({})).storage).to.deep.equal({ _tag: 'InMemory', limits: { maxPlants: 100_000, maxBytes: 64 * 1024 ** 2 } })
    expect(expectRight(loadConfig({ IN_MEMORY_MAX_PLANTS: '25000' })).storage).to.deep.equal({
      _tag: 'InMemory',
      limits: { maxPlants: 25_000, maxBytes: 16 * 1024 ** 2 },
    })
    expect(expectRight(loadConfig({ IN_MEMORY_MAX_PLANTS: '20000000' })).storage).to.deep.equal({
      _tag: 'InMemory',
      limits: { maxPlants: 20_000_000, maxBytes: 200 * 64 * 1024 ** 2 },
    })
  })

  it('no longer reads IN_MEMORY_MAX_BYTES nor LOG_BUFFER_LIMIT: their bounds are constants', function () {
    const config = expectRight(loadConfig({ IN_MEMORY_MAX_BYTES: '1GiB', LOG_BUFFER_LIMIT: '256KiB' }))
    expect(config.storage).to.deep.equal({ _tag: 'InMemory', limits: { maxPlants: 100_000, maxBytes: 64 * 1024 ** 2 } })
    expect(config.logBufferBytes).to.equal(16 * 1024 ** 2)
  })

  const bad: ReadonlyArray<readonly [string, string]> = [
    ['PORT', '65536'],
    ['PORT', '-1'],
    ['PORT', '80a'],
    ['HOST', 'two words'],
    ['BASE_PATH', 'v2'],
    ['BASE_PATH', '/v2/'],
    ['BASE_PATH', '/v2?x=1'],
    ['BASE_PATH', '/:tenant'],
    ['BASE_PATH', '/v*'],
    ['BASE_PATH', '/v(2)'],
    ['PLANT_STORE_TOKENS', 'short'],
    ['PLANT_STORE_TOKENS', 'good-token-0123456789,,other-token-0123456789'],
    ['PLANT_STORE_TOKENS', 'token with spaces 0123456789'],
    ['MONGODB_URI', 'http://db.example'],
    ['MONGODB_DB', 'bad.name'],
    ['MONGODB_DB', 'x'.repeat(64)],
    ['MONGODB_TIMEOUT_MS', '50'],
    ['MONGODB_TIMEOUT_MS', '5s'],
    ['BODY_LIMIT', '0'],
    ['BODY_LIMIT', '17mb'],
    ['BODY_LIMIT', 'lots'],
    ['HEADERS_TIMEOUT_MS', '99'],
    ['REQUEST_TIMEOUT_MS', '600001'],
    ['KEEP_ALIVE_TIMEOUT_MS', '-1'],
    ['MAX_CONNECTIONS', 'none'],
    ['MAX_CONNECTIONS', '1e3'],
    ['SHUTDOWN_DRAIN_MS', '600001'],
    ['SHUTDOWN_GRACE_MS', '10s'],
    ['IN_MEMORY_MAX_PLANTS', '-5'],
    ['IN_MEMORY_MAX_PLANTS', 'many'],
  ]
  for (const [name, value] of bad) {
    it(`refuses ${name}=${JSON.stringify(value)}, naming the variable and not echoing the value`, function () {
      const messages = refusal({ [name]: value })
      expect(messages).to.have.length(1)
      expect(messages[0]).to.match(new RegExp(`^${name}: expected .+`))
      expect(messages[0]).to.not.include(value)
    })
  }

  it('reports every bad variable at once', function () {
    const messages = refusal({ PORT: 'x', BODY_LIMIT: 'y' })
    expect(messages.map((m) => m.split(':')[0]).sort()).to.deep.equal(['BODY_LIMIT', 'PORT'])
  })
})
