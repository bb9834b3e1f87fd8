// `npm run bench`: speed and memory of the hot path, each reported as a ratio against a reference
// measured in the same run, so the numbers compare across machines. Nothing here asserts a time.
import { once } from 'node:events'
import { createServer, request, Agent, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Koa from 'koa'
import bodyParser from 'koa-bodyparser'
import { createHttpApp, createHttpServer, parseExactJson } from '../adapters/http/index.js'
import { makeInMemoryPlantStore } from '../adapters/in-memory/index.js'
import { makeStaticTokenAuthenticator } from '../adapters/static-tokens/index.js'
import { pino } from 'pino'
import { asLoggerPort, makePino } from '../apps/server/logger.js'
import { prometheusInstrumentation } from '../apps/server/metrics.js'

const TOKEN = 'bench-token-0123456789abcdef'
const silent = { info: () => {}, warn: () => {}, error: () => {} }

/** Runs `work` repeatedly for about `ms` milliseconds and answers operations per second. */
const opsPerSecond = (work: () => void, ms = 1500): number => {
  for (let i = 0; i < 2000; i++) work()
  let count = 0
  const started = performance.now()
  while (performance.now() - started < ms) {
    for (let i = 0; i < 500; i++) work()
    count += 500
  }
  return (count * 1000) / (performance.now() - started)
}

const parseBenchmarks = (): void => {
  const typical = Buffer.from('{"id":9007199254740993,"name":"Monstera deliciosa","tag":"aroid"}')
  const large = Buffer.from(
    JSON.stringify({ id: 1, name: 'x'.repeat(100), extra: Array.from({ length: 2000 }, (_, i) => ({ i, v: 'abc' })) }),
  )
  for (const [label, bytes] of [['typical body (63 B)', typical], [`large body (${large.length} B)`, large]] as const) {
    const reference = opsPerSecond(() => JSON.parse(bytes.toString('utf8')))
    const ours = opsPerSecond(() => parseExactJson(bytes))
    report(`parse ${label}: exact parser vs JSON.parse`, ours, reference)
  }
}

const listen = async (server: Server): Promise<{ port: number; close: () => void }> => {
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { port: (server.address() as AddressInfo).port, close: () => server.close() }
}

/** Sends `total` POSTs with `concurrency` in flight over keep-alive and answers requests per second. */
const load = async (port: number, total: number, concurrency: number): Promise<number> => {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  let next = 0
  const one = (id: number) =>
    new Promise<void>((resolve, reject) => {
      const body = `{"id":${id},"name":"Plant ${id}","tag":"bench"}`
      const req = request(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/plants',
          agent,
          headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', 'Content-Length': body.length },
        },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`))
          res.resume().on('end', resolve)
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  const worker = async () => {
    while (next < total) await one(next++)
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  const elapsed = performance.now() - started
  agent.destroy()
  return (total * 1000) / elapsed
}

const requestBenchmark = async (): Promise<void> => {
  // The reference: the textbook Koa stack for this route, koa-bodyparser's JSON mode (JSON.parse,
  // doubles, U+FFFD for bad bytes) and a Map, without authentication, exactness or error mapping.
  const plainStore = new Map<number, unknown>()
  const bare = new Koa()
  bare.use(bodyParser({ enableTypes: ['json'] }))
  bare.use((ctx) => {
    const { id, name, tag } = ctx.request.body as { id: number; name: string; tag: string }
    plainStore.set(id, { name, tag })
    ctx.body = { name, tag }
  })
  const full = createHttpApp({
    plantStore: makeInMemoryPlantStore(),
    authenticator: makeStaticTokenAuthenticator([TOKEN]),
    log: silent,
    basePath: '',
    bodyLimitBytes: 64 * 1024,
  })
  const total = 20_000
  const handleBare = bare.callback()
  const reference = await listen(createServer((req, res) => void handleBare(req, res)))
  await load(reference.port, 2000, 16)
  const referenceRate = await load(reference.port, total, 16)
  reference.close()
  const service = await listen(createHttpServer(full))
  await load(service.port, 2000, 16)
  const serviceRate = await load(service.port, total, 16)
  service.close()
  report(`POST /plants, ${total} requests, 16 in flight: full service vs plain Koa + koa-bodyparser`, serviceRate, referenceRate, 'req/s')
}

/**
 * The cost of operating the service: the same app with the request log (pino, as `npm start` writes
 * it, here to /dev/null) and Prometheus metrics on every port and request, against the app with
 * neither. Rounds alternate so that both see the same machine; the medians are compared. The load
 * generator runs in this process, so CPU per request includes the client's share, equal on both sides:
 * the difference is what logging and metrics cost.
 */
const operatingCostBenchmark = async (): Promise<void> => {
  const plain = () =>
    createHttpApp({
      plantStore: makeInMemoryPlantStore(),
      authenticator: makeStaticTokenAuthenticator([TOKEN]),
      log: silent,
      basePath: '',
      bodyLimitBytes: 64 * 1024,
    })
  const observed = () => {
    const instrumentation = prometheusInstrumentation()
    return createHttpApp({
      plantStore: instrumentation.plantStore(makeInMemoryPlantStore()),
      authenticator: instrumentation.authenticator(makeStaticTokenAuthenticator([TOKEN])),
      log: asLoggerPort(makePino('info', pino.destination({ dest: '/dev/null', sync: false }))),
      observer: instrumentation.http,
      basePath: '',
      bodyLimitBytes: 64 * 1024,
    })
  }
  const total = 20_000
  const measure = async (app: Koa): Promise<{ rate: number; cpuUs: number }> => {
    const service = await listen(createHttpServer(app))
    await load(service.port, 2000, 16)
    const cpu = process.cpuUsage()
    const rate = await load(service.port, total, 16)
    const { user, system } = process.cpuUsage(cpu)
    service.close()
    return { rate, cpuUs: (user + system) / total }
  }
  const off: Array<{ rate: number; cpuUs: number }> = []
  const on: Array<{ rate: number; cpuUs: number }> = []
  for (let round = 0; round < 3; round++) {
    off.push(await measure(plain()))
    on.push(await measure(observed()))
  }
  const median = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
  const [rateOff, rateOn] = [median(off.map((m) => m.rate)), median(on.map((m) => m.rate))]
  const [cpuOff, cpuOn] = [median(off.map((m) => m.cpuUs)), median(on.map((m) => m.cpuUs))]
  report(`POST /plants, ${total} requests, 16 in flight, median of 3 rounds: logging + metrics on vs off`, rateOn, rateOff, 'req/s')
  console.log(
    `CPU per request (server and load generator in one process): ${cpuOn.toFixed(1)} us on vs ${cpuOff.toFixed(1)} us off, logging + metrics cost ${(cpuOn - cpuOff).toFixed(1)} us per request`,
  )
}

const memoryBenchmark = async (): Promise<void> => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) {
    console.log('memory: skipped (run with node --expose-gc, as npm run bench does)')
    return
  }
  const count = 100_000
  // The heap and the array buffers: the store keeps its plants in buffers outside the heap's objects.
  const used = (): number => {
    const { heapUsed, arrayBuffers } = process.memoryUsage()
    return heapUsed + arrayBuffers
  }
  const measure = async (fill: () => Promise<unknown>): Promise<number> => {
    gc()
    const before = used()
    const kept = await fill()
    gc()
    const grown = used() - before
    if (kept === undefined) throw new Error('unreachable')
    return grown / count
  }
  const reference = await measure(async () => {
    const map = new Map<bigint, { id: bigint; name: string; tag: string }>()
    for (let i = 0; i < count; i++) map.set(BigInt(i), { id: BigInt(i), name: `Plant ${i}`, tag: 'bench' })
    return map
  })
  const ours = await measure(async () => {
    const store = makeInMemoryPlantStore()
    for (let i = 0; i < count; i++) {
      await store.insertUnlessExists({ id: BigInt(i), name: `Plant ${i}`, tag: 'bench' } as never)()
    }
    return store
  })
  console.log(
    `memory per stored plant, in-memory store vs a bare Map of the same objects: ${ours.toFixed(0)} B vs ${reference.toFixed(0)} B, ratio ${(ours / reference).toFixed(2)}`,
  )
}

const report = (label: string, ours: number, reference: number, unit = 'ops/s'): void => {
  console.log(
    `${label}: ${Math.round(ours).toLocaleString('en')} vs ${Math.round(reference).toLocaleString('en')} ${unit}, ratio ${(ours / reference).toFixed(2)}`,
  )
}

parseBenchmarks()
await requestBenchmark()
await operatingCostBenchmark()
await memoryBenchmark()
