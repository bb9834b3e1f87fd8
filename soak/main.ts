// `npm run soak`: a bounded run of mixed traffic against the built service, as `npm start` runs
// it, first on in-memory storage, then on the MongoDB wire peer while it flaps. It prints what
// was sent and answered, the service's memory over time, the normal clients' throughput with and
// without one hostile connection, and how many acknowledged plants are missing afterwards (the
// one number that must be 0). It asserts no speed: the numbers are for people to read.
//   npm run soak -- --seconds 20 --clients 20
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { flap, OBSERVED_FLAPPING } from '../test/support/mongo-peer/flapping.js'
import { startMongoPeer } from '../test/support/mongo-peer/server.js'
import { isBuildCurrent } from '../test/support/current-build.js'
import { startServiceProcess, type ServiceProcess } from '../test/support/service-process.js'
import { probe, TOKEN } from './http.js'
import { sampleRss } from './rss.js'
import { missingByReplay, newTally, runHostileConnection, runNormalClients, type Plant, type Tally } from './traffic.js'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    clients: { type: 'string', default: '20' },
  },
})
const seconds = Number(values.seconds)
const clients = Number(values.clients)
if (!(seconds >= 1 && seconds <= 3600) || !(clients >= 1 && clients <= 1000)) {
  console.error('--seconds must be from 1 to 3600 and --clients from 1 to 1000')
  process.exit(2)
}
if (!isBuildCurrent()) {
  console.error('dist/ is missing or older than the sources: run `npm run build` first (npm run soak does)')
  process.exit(2)
}

/** Runs `work` until `ms` have passed, handing it the signal that ends it. */
const during = async <A>(ms: number, work: (signal: AbortSignal) => Promise<A>): Promise<A> => {
  const stop = new AbortController()
  const timer = setTimeout(() => stop.abort(), ms)
  try {
    return await work(stop.signal)
  } finally {
    clearTimeout(timer)
  }
}

const started = async (env: Record<string, string>): Promise<{ service: ServiceProcess; url: string }> => {
  const service = startServiceProcess({ PLANT_STORE_TOKENS: TOKEN, ...env })
  return { service, url: await service.listening }
}

const show = (statuses: ReadonlyMap<number, number>): string =>
  [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status === 0 ? 'no answer' : status}: ${n}`).join(', ')

const total = (tally: Tally): number => tally.perSecond.reduce((sum, n) => sum + n, 0)

// Requests per second over the whole seconds of a phase (the first one is warm-up, left out).
const throughput = (tally: Tally): number => {
  const steady = tally.perSecond.slice(1, -1)
  return steady.length === 0 ? total(tally) / seconds : steady.reduce((sum, n) => sum + n, 0) / steady.length
}

const report = (
  title: string,
  phases: ReadonlyArray<readonly [string, Tally]>,
  rss: ReadonlyArray<readonly [number, number]>,
): void => {
  console.log(`\n== ${title}`)
  for (const [phase, tally] of phases) {
    console.log(`  ${phase}: ${total(tally)} requests`)
    for (const [kind, statuses] of [...tally.byKind].sort(([a], [b]) => a.localeCompare(b))) {
      console.log(`    ${kind.padEnd(16)} ${show(statuses)}`)
    }
  }
  const tallies = phases.map(([, tally]) => tally)
  const every = Math.max(1, Math.ceil(rss.length / 12))
  console.log(`  RSS (s: MiB)     ${rss.filter((_, i) => i % every === 0).map(([s, mib]) => `${s}: ${mib.toFixed(0)}`).join(', ')}`)
  const wrong = tallies.flatMap((tally) => tally.wrong)
  console.log(`  wrong answers    ${wrong.length}${wrong.length > 0 ? ` (first: ${wrong.slice(0, 5).join('; ')})` : ''}`)
}

// The soak measures traffic, not the in-memory bound (100,000 plants by default), which its
// clients reach in seconds: a phase answered 507 would compare cheap refusals with stores.
const SOAK_STORE_BOUND = { IN_MEMORY_MAX_PLANTS: '20000000' }

const inMemory = async (): Promise<number> => {
  const { service, url } = await started(SOAK_STORE_BOUND)
  const rss = sampleRss(service.child.pid ?? 0)
  const calm = newTally()
  await during(seconds * 1000, (signal) => runNormalClients(url, clients, calm, signal))
  const loaded = newTally()
  const hostile = await during(seconds * 1000, async (signal) => {
    const [statuses] = await Promise.all([runHostileConnection(url, signal), runNormalClients(url, clients, loaded, signal)])
    return statuses
  })
  const acknowledged = new Map<bigint, Plant>([...calm.acknowledged, ...loaded.acknowledged])
  const missing = await missingByReplay(url, acknowledged)
  rss.stop()
  await service.stop()

  report(`in-memory storage: ${clients} clients, ${seconds} s alone, then ${seconds} s beside one hostile connection`, [['alone', calm], ['beside the hostile connection', loaded]], rss.samples())
  console.log(`  hostile conn.    ${show(hostile)} (the worst body: a 60,000-zero number, gzipped)`)
  const [before, after] = [throughput(calm), throughput(loaded)]
  const cost = before === 0 ? 0 : (1 - after / before) * 100
  console.log(`  throughput       ${before.toFixed(0)} req/s alone, ${after.toFixed(0)} req/s beside it: ${cost.toFixed(1)} % lost (goal: under 10 %)`)
  console.log(`  acknowledged     ${acknowledged.size} plants, missing by replay: ${missing.length}`)
  return missing.length + calm.wrong.length + loaded.wrong.length
}

const onFlappingPeer = async (): Promise<number> => {
  const peer = await startMongoPeer()
  const { service, url } = await started({ MONGODB_URI: peer.uri, MONGODB_DB: 'soak' })
  const rss = sampleRss(service.child.pid ?? 0)
  const tally = newTally()
  const flapMs = OBSERVED_FLAPPING.times * (OBSERVED_FLAPPING.downMs + OBSERVED_FLAPPING.upMs)
  let recoveredMs = Number.NaN
  const hostile = await during(Math.max(2 * seconds * 1000, flapMs + 15_000), async (signal) => {
    const flapping = (async () => {
      await sleep(2000)
      await flap(peer, OBSERVED_FLAPPING, signal)
      const lastFlap = performance.now()
      while (!signal.aborted && (await probe(url, '/readyz')) !== 200) await sleep(100)
      if (!signal.aborted) recoveredMs = performance.now() - lastFlap
    })()
    const [statuses] = await Promise.all([runHostileConnection(url, signal), runNormalClients(url, clients, tally, signal), flapping])
    return statuses
  })
  const ready = await probe(url, '/readyz')
  rss.stop()
  await service.stop()
  const stored = new Map(peer.documents('soak.plants').map((document) => [String(document['_id']), document]))
  await peer.stop()
  const missing = [...tally.acknowledged.values()].filter((plant) => {
    const document = stored.get(String(plant.id))
    return document === undefined || document['name'] !== plant.name || document['tag'] !== plant.tag
  })

  report(`MongoDB wire peer flapping (down ${OBSERVED_FLAPPING.downMs} ms / up ${OBSERVED_FLAPPING.upMs} ms, ${OBSERVED_FLAPPING.times} times): ${clients} clients and one hostile connection`, [['through the flapping', tally]], rss.samples())
  console.log(`  hostile conn.    ${show(hostile)}`)
  console.log(`  throughput       ${throughput(tally).toFixed(0)} req/s over the run`)
  console.log(`  recovery         /readyz 200 ${Number.isNaN(recoveredMs) ? 'not seen' : `${(recoveredMs / 1000).toFixed(1)} s`} after the last flap; at the end: ${ready}`)
  console.log(`  acknowledged     ${tally.acknowledged.size} plants, missing from the peer: ${missing.length}`)
  return missing.length + tally.wrong.length + (ready === 200 ? 0 : 1)
}

const problems = (await inMemory()) + (await onFlappingPeer())
console.log(`\n${problems === 0 ? 'soak passed: nothing acknowledged is missing, no wrong answer' : `soak found ${problems} problems`}`)
process.exit(problems === 0 ? 0 : 1)
