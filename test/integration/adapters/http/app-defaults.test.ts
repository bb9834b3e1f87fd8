import { expect } from 'chai'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import { createHttpApp, createHttpServer, DEFAULT_BODY_LIMIT_BYTES, warningsToConsole } from '../../../../adapters/http/index.js'
import { makeInMemoryPlantStore } from '../../../../adapters/in-memory/index.js'
import { makeStaticTokenAuthenticator } from '../../../../adapters/static-tokens/index.js'
import { loadConfig } from '../../../../apps/server/config.js'
import { expectErrorDocument, expectPlant } from '../../../support/responses.js'

describe('createHttpApp with only its ports', function () {
  const token = 'defaults-token-0123456789'
  let url = ''
  let close = async () => {}

  before(async function () {
    const plantStore = makeInMemoryPlantStore()
    const authenticator = makeStaticTokenAuthenticator([token])
    const app = createHttpApp({ plantStore, authenticator })
    const server = createHttpServer(app)
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    close = async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
  after(() => close())

  const post = (body: string) =>
    fetch(`${url}/plants`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body })

  it('serves POST /plants at the root', async function () {
    await expectPlant(await post('{"id":9007199254740993,"name":"Monstera"}'), { name: 'Monstera' })
  })

  it('bounds bodies by the service default: one byte over it is 413', async function () {
    const head = '{"id":2,"name":"'
    const padded = (size: number) => `${head}${'a'.repeat(size - head.length - 2)}"}`
    await expectPlant(await post(padded(DEFAULT_BODY_LIMIT_BYTES)), { name: 'a'.repeat(DEFAULT_BODY_LIMIT_BYTES - head.length - 2) })
    await expectErrorDocument(await post(padded(DEFAULT_BODY_LIMIT_BYTES + 1)), 413)
  })

  it('defaults its body limit to the one the service starts with', function () {
    const config = loadConfig({ PLANT_STORE_TOKENS: token })
    expect(E.isRight(config) && config.right.bodyLimitBytes).to.equal(DEFAULT_BODY_LIMIT_BYTES)
  })
})

describe('warningsToConsole, the default log', function () {
  const calls: Array<readonly [string, ReadonlyArray<unknown>]> = []
  const original = { ...console }
  beforeEach(function () {
    calls.length = 0
    const record = (name: string) => (...args: unknown[]) => void calls.push([name, args])
    Object.assign(console, Object.fromEntries(['debug', 'info', 'log', 'warn', 'error'].map((name) => [name, record(name)])))
  })
  afterEach(function () {
    Object.assign(console, original)
  })

  it('drops the line of each answered request', function () {
    warningsToConsole.info('request', { status: 200 })
    expect(calls).to.deep.equal([])
  })

  it('writes warnings and errors, with their fields, to the console', function () {
    warningsToConsole.warn('request refused: dependency unavailable', { status: 503 })
    warningsToConsole.error('request failed')
    expect(calls).to.deep.equal([
      ['warn', ['request refused: dependency unavailable', { status: 503 }]],
      ['error', ['request failed', {}]],
    ])
  })
})
