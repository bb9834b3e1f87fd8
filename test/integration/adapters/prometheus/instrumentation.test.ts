import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Registry } from 'prom-client'
import { makeInMemoryPlantStore } from '../../../../adapters/in-memory/index.js'
import {
  httpRequestRecorder,
  instrumentAuthenticator,
  instrumentPlantStore,
  keySetFetchRecorder,
  makePlantStoreMetrics,
  metricsRequestHandler,
  type PlantStoreMetrics,
} from '../../../../adapters/prometheus/index.js'
import { makeStaticTokenAuthenticator } from '../../../../adapters/static-tokens/index.js'
import {
  authenticationUnavailable,
  insufficientScope,
  storageUnavailable,
  unauthenticated,
  type Authenticator,
  type PlantStore,
} from '../../../../core/index.js'
import { authenticatorAnswering, bearerToken } from '../../../support/fakes.js'
import { postPlant, startTestApp, TOKEN } from '../../../support/http-app.js'
import { parsePrometheusText, valueOf, type Sample } from '../../../support/prometheus-text.js'
import { plant } from '../../../support/plants.js'
import { expectErrorDocument } from '../../../support/responses.js'

const scrape = async (metrics: PlantStoreMetrics): Promise<ReadonlyArray<Sample>> => parsePrometheusText(await metrics.registry.metrics())

describe('Prometheus instrumentation', function () {
  let metrics: PlantStoreMetrics
  beforeEach(() => {
    metrics = makePlantStoreMetrics()
  })

  describe('instrumentPlantStore', function () {
    it('counts plants created, replayed and refused as conflicts, and each insert by outcome', async function () {
      const store = instrumentPlantStore(makeInMemoryPlantStore(), metrics)
      for (const candidate of [plant(1n, 'a'), plant(2n, 'b'), plant(3n, 'c'), plant(1n, 'a'), plant(2n, 'other')]) {
        await store.insertUnlessExists(candidate)()
      }
      await store.checkReady()()
      const samples = await scrape(metrics)
      expect(valueOf(samples, 'plant_store_plants_total', { outcome: 'created' })).to.equal(3)
      expect(valueOf(samples, 'plant_store_plants_total', { outcome: 'replayed' })).to.equal(1)
      expect(valueOf(samples, 'plant_store_plants_total', { outcome: 'conflict' })).to.equal(1)
      const calls = 'plant_store_storage_call_duration_seconds_count'
      expect(valueOf(samples, calls, { operation: 'insert', outcome: 'ok' })).to.equal(5)
      expect(valueOf(samples, calls, { operation: 'check_ready', outcome: 'ok' })).to.equal(1)
    })

    it('counts outages and defects, passing the answer and the rejection through unchanged', async function () {
      const failing: PlantStore = {
        insertUnlessExists: () => TE.left(storageUnavailable('down')),
        checkReady: () => () => Promise.reject(new RangeError('bug')),
      }
      const store = instrumentPlantStore(failing, metrics)
      expect(await store.insertUnlessExists(plant(1n, 'a'))()).to.deep.equal(E.left(storageUnavailable('down')))
      let rejected: unknown
      await store.checkReady()().catch((error: unknown) => (rejected = error))
      expect(rejected).to.be.instanceOf(RangeError)
      const samples = await scrape(metrics)
      const calls = 'plant_store_storage_call_duration_seconds_count'
      expect(valueOf(samples, calls, { operation: 'insert', outcome: 'unavailable' })).to.equal(1)
      expect(valueOf(samples, calls, { operation: 'check_ready', outcome: 'defect' })).to.equal(1)
      expect(valueOf(samples, 'plant_store_plants_total', { outcome: 'created' })).to.equal(0)
    })
  })

  describe('instrumentAuthenticator', function () {
    it('counts each outcome of a token check', async function () {
      const token = bearerToken('some-token-0123456789')
      const cases: ReadonlyArray<readonly [Authenticator, number]> = [
        [makeStaticTokenAuthenticator([token]), 2],
        [makeStaticTokenAuthenticator([bearerToken('another-token-0123456789')]), 3],
        [authenticatorAnswering(E.left(insufficientScope('plants:write'))), 1],
        [authenticatorAnswering(E.left(authenticationUnavailable('jwks down'))), 4],
        [authenticatorAnswering(E.left(unauthenticated('UnknownKey', 'unknown key'))), 5],
        [{ verify: () => () => Promise.reject(new Error('bug')) }, 1],
      ]
      for (const [authenticator, times] of cases) {
        const instrumented = instrumentAuthenticator(authenticator, metrics)
        for (let i = 0; i < times; i++) await instrumented.verify(token)().catch(() => undefined)
      }
      const samples = await scrape(metrics)
      const count = (outcome: string) => valueOf(samples, 'plant_store_authentications_total', { outcome })
      expect(['accepted', 'refused', 'unknown_key', 'insufficient_scope', 'unavailable', 'defect'].map(count)).to.deep.equal([2, 3, 5, 1, 4, 1])
    })
  })

  it('keySetFetchRecorder counts fetches by outcome', async function () {
    const recorder = keySetFetchRecorder(metrics)
    recorder.keySetFetched('ok', 0.01)
    recorder.keySetFetched('failed', 5)
    recorder.keySetFetched('failed', 0.2)
    const samples = await scrape(metrics)
    expect(valueOf(samples, 'plant_store_key_set_fetch_duration_seconds_count', { outcome: 'ok' })).to.equal(1)
    expect(valueOf(samples, 'plant_store_key_set_fetch_duration_seconds_count', { outcome: 'failed' })).to.equal(2)
  })

  it('httpRequestRecorder, as the HTTP app observer, counts requests by route pattern, method and status', async function () {
    const app = await startTestApp({ observer: httpRequestRecorder(metrics), basePath: '/v1' })
    try {
      const post = (body: string, headers: Record<string, string> = {}) =>
        fetch(`${app.url}/v1/plants`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', ...headers },
          body,
        })
      for (const body of ['{"id":1,"name":"a"}', '{"id":2,"name":"b"}', '{"id":1,"name":"a"}', '{"id":1,"name":"z"}', '{']) {
        await (await post(body)).arrayBuffer()
      }
      await (await post('{"id":3,"name":"c"}', { Authorization: '' })).arrayBuffer()
      await (await fetch(`${app.url}/v1/plants`)).arrayBuffer()
      await (await fetch(`${app.url}/no/such/path/${Math.random()}`)).arrayBuffer()
      await (await fetch(`${app.url}/healthz`, { method: 'HEAD' })).arrayBuffer()
      await (await postPlant(app.url, '{}')).arrayBuffer() // /plants without the base path: unmatched
      const samples = await scrape(metrics)
      const requests = (route: string, method: string, status: string) =>
        valueOf(samples, 'plant_store_http_requests_total', { route, method, status })
      expect(requests('/v1/plants', 'POST', '200')).to.equal(3)
      expect(requests('/v1/plants', 'POST', '409')).to.equal(1)
      expect(requests('/v1/plants', 'POST', '400')).to.equal(1)
      expect(requests('/v1/plants', 'POST', '401')).to.equal(1)
      expect(requests('/v1/plants', 'GET', '405')).to.equal(1)
      expect(requests('unmatched', 'GET', '404')).to.equal(1)
      expect(requests('unmatched', 'POST', '404')).to.equal(1)
      expect(requests('/healthz', 'HEAD', '200')).to.equal(1)
      // Besides the traffic check's own GET /openapi.json, made once when the app started.
      const counted = samples.filter((s) => s.name === 'plant_store_http_requests_total' && s.labels['route'] !== '/openapi.json')
      expect(counted.reduce((sum, s) => sum + s.value, 0)).to.equal(10)
      expect(valueOf(samples, 'plant_store_http_request_duration_seconds_count', { route: '/v1/plants', method: 'POST' })).to.equal(6)
      expect(
        valueOf(samples, 'plant_store_http_request_duration_seconds_bucket', { route: '/v1/plants', method: 'POST', le: '+Inf' }),
      ).to.equal(6)
    } finally {
      await app.close()
    }
  })

  it('serves the registry at GET /metrics with the default process metrics, and nothing elsewhere', async function () {
    const server = createServer(metricsRequestHandler(metrics.registry))
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const response = await fetch(`${url}/metrics`)
      expect(response.status).to.equal(200)
      expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/)
      const samples = parsePrometheusText(await response.text())
      expect(samples.map((s) => s.name)).to.include.members([
        'process_cpu_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_seconds',
      ])
      expect((await fetch(`${url}/`)).status).to.equal(404)
      expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).to.equal(404)
      await expectErrorDocument(await fetch(`${url}/elsewhere`), 404)
    } finally {
      server.close()
    }
  })

  describe('the metrics endpoint under repeated scrapes', function () {
    // A registry that counts its renders, failing the first when asked to.
    const countingRegistry = (failFirst = false) => {
      let renders = 0
      const registry = {
        contentType: 'text/plain; version=0.0.4; charset=utf-8',
        metrics: async (): Promise<string> => {
          renders += 1
          if (failFirst && renders === 1) throw new Error('collector failed')
          return `renders ${renders}\n`
        },
      }
      return { registry: registry as unknown as Registry, renders: () => renders }
    }
    const serving = async (registry: Registry, run: (url: string) => Promise<void>): Promise<void> => {
      const server = createServer(metricsRequestHandler(registry))
      server.listen(0, '127.0.0.1')
      await once(server, 'listening')
      try {
        await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)
      } finally {
        server.close()
      }
    }

    // On a real socket and the real clock: the renders counted against the seconds the scrapes
    // took, which a busy machine stretches (the rule's edges are the unit tier's, on virtual time:
    // test/unit/adapters/prometheus/timing.test.ts).
    it('renders the registry once for every scrape within a second, and afresh after it', async function () {
      const { registry, renders } = countingRegistry()
      await serving(registry, async (url) => {
        const started = performance.now()
        const texts = await Promise.all(Array.from({ length: 20 }, () => fetch(url).then((r) => r.text())))
        for (let i = 0; i < 20; i += 1) texts.push(await (await fetch(url)).text())
        const seconds = (performance.now() - started) / 1000
        expect(renders(), `renders for 40 scrapes in ${seconds.toFixed(1)} s`).to.be.within(1, Math.ceil(seconds))
        expect(texts[0]).to.equal('renders 1\n')
        const rendered = renders()
        await new Promise((resolve) => setTimeout(resolve, 1_100))
        expect(await (await fetch(url)).text()).to.equal(`renders ${rendered + 1}\n`)
      })
    })

    it('keeps no failed render: the scrape after a 500 renders again', async function () {
      const { registry, renders } = countingRegistry(true)
      await serving(registry, async (url) => {
        await expectErrorDocument(await fetch(url), 500)
        expect(await (await fetch(url)).text()).to.equal('renders 2\n')
        expect(renders()).to.equal(2)
      })
    })
  })
})
