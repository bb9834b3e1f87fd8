// `npm run bench:store`: the pauses an in-memory store's inserts meet as it grows to many plants,
// in process, without HTTP. Each layout fills a fresh child process (so no heap is shared) with
// realistic plants, in batches back to back, and reports the worst pauses, the batch latency, the
// garbage collector's pauses, the memory per plant and the insert rate. Nothing here asserts a time.
//
//   npm run bench:store                      every layout, to 10^6 and 2x10^6 plants
//   npm run bench:store -- map 1000000       one layout, one size (what each child runs)
//
// The layouts: `store` is the adapter as shipped; `map` is one Map of a copied object per plant
// (the store's earlier layout, as a reference); `sharded-strings` is 256 Maps of the bigint id to
// one string packing name and tag (the simpler alternative to a layout without per-plant objects).
import { execFileSync } from 'node:child_process'
import { randomFillSync } from 'node:crypto'
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks'
import { makeInMemoryPlantStore } from '../adapters/in-memory/index.js'
import type { NewPlant } from '../core/index.js'

const BATCH = 200
const LAYOUTS = ['map', 'sharded-strings', 'store'] as const
type Layout = (typeof LAYOUTS)[number]

interface Inserter {
  readonly insert: (plant: NewPlant) => Promise<unknown>
  readonly kept: () => unknown
}

const mapLayout = (): Inserter => {
  const plants = new Map<bigint, NewPlant>()
  return {
    insert: (plant) =>
      new Promise((resolve) => {
        const stored = plants.get(plant.id)
        if (stored !== undefined) return resolve(stored)
        const copy = { ...plant }
        plants.set(plant.id, copy)
        resolve(copy)
      }),
    kept: () => plants,
  }
}

const shardedStringsLayout = (): Inserter => {
  const shards = Array.from({ length: 256 }, () => new Map<bigint, string>())
  return {
    insert: (plant) =>
      new Promise((resolve) => {
        const shard = shards[Number(plant.id & 255n)] as Map<bigint, string>
        const stored = shard.get(plant.id)
        if (stored !== undefined) return resolve(stored)
        // The name's length first, so name and tag read back apart. Joined, not concatenated:
        // `a + b` makes a rope of several heap objects, a join one flat string.
        const packed = [plant.name.length, plant.tag === undefined ? '-' : '+', plant.name, plant.tag ?? ''].join('')
        shard.set(plant.id, packed)
        resolve(plant)
      }),
    kept: () => shards,
  }
}

const storeLayout = (): Inserter => {
  const store = makeInMemoryPlantStore({ maxPlants: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER })
  return { insert: (plant) => store.insertUnlessExists(plant)(), kept: () => store }
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ     éü'
const word = (min: number, max: number): string => {
  const length = min + Math.floor(Math.random() * (max - min + 1))
  let text = ''
  for (let i = 0; i < length; i += 1) text += LETTERS[Math.floor(Math.random() * LETTERS.length)]
  return text
}

// A batch of plants as the HTTP adapter hands them over: fresh random int64 ids, and names and
// tags read from a JSON body, so they are the parser's strings.
const batchOfPlants = (): NewPlant[] => {
  const ids = randomFillSync(new BigInt64Array(BATCH))
  const plants: NewPlant[] = []
  for (const id of ids) {
    const body = JSON.stringify(Math.random() < 0.5 ? { name: word(5, 30), tag: word(3, 12) } : { name: word(5, 30) })
    plants.push({ id, ...(JSON.parse(body) as { name: string; tag?: string }) } as NewPlant)
  }
  return plants
}

const quantile = (sorted: Float64Array, q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN

const fill = async (layout: Layout, count: number): Promise<void> => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench:store does)')
  const pauses = { major: 0, minor: 0, total: 0 }
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { detail?: { kind?: number } }>) {
      const kind = entry.detail?.kind
      pauses.total += entry.duration
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) pauses.major = Math.max(pauses.major, entry.duration)
      else if (kind === constants.NODE_PERFORMANCE_GC_MINOR) pauses.minor = Math.max(pauses.minor, entry.duration)
    }
  })
  gc()
  const memory = () => {
    const { heapUsed, arrayBuffers } = process.memoryUsage()
    return heapUsed + arrayBuffers
  }
  const before = memory()
  const inserter = { map: mapLayout, 'sharded-strings': shardedStringsLayout, store: storeLayout }[layout]()
  observer.observe({ entryTypes: ['gc'] })
  const batches = new Float64Array(Math.ceil(count / BATCH))
  // Wall time, and the process's CPU time (every thread) over the same span: a stretch of wall time
  // with little CPU in it is the machine running something else, not this process pausing. The
  // busiest span counts the lesser of the two, which another process on the machine cannot inflate.
  const cpuMs = (): number => {
    const { user, system } = process.cpuUsage()
    return (user + system) / 1000
  }
  const worst = { batch: 0, batchCpu: 0, gap: 0, gapCpu: 0, busiest: 0 }
  let insertMs = 0
  let lastEnd = performance.now()
  let lastEndCpu = cpuMs()
  const started = lastEnd
  for (let done = 0, batch = 0; done < count; done += BATCH, batch += 1) {
    // A turn of the event loop between batches, as requests arrive: a collection the engine runs
    // between tasks then shows as a gap.
    await new Promise((resolve) => setImmediate(resolve))
    const plants = batchOfPlants()
    const start = performance.now()
    const startCpu = cpuMs()
    if (start - lastEnd > worst.gap) Object.assign(worst, { gap: start - lastEnd, gapCpu: startCpu - lastEndCpu })
    worst.busiest = Math.max(worst.busiest, Math.min(start - lastEnd, startCpu - lastEndCpu))
    for (const plant of plants) await inserter.insert(plant)
    lastEnd = performance.now()
    lastEndCpu = cpuMs()
    batches[batch] = lastEnd - start
    if (lastEnd - start > worst.batch) Object.assign(worst, { batch: lastEnd - start, batchCpu: lastEndCpu - startCpu })
    worst.busiest = Math.max(worst.busiest, Math.min(lastEnd - start, lastEndCpu - startCpu))
    insertMs += lastEnd - start
  }
  const wallSeconds = (performance.now() - started) / 1000
  observer.disconnect()
  // One full collection of the filled heap: its marking work grows with the live objects, which is
  // what a major collection of a long-running service pays with this store.
  const gcStart = performance.now()
  gc()
  const fullGcMs = performance.now() - gcStart
  const bytesPerPlant = (memory() - before) / count
  if (inserter.kept() === undefined) throw new Error('unreachable')
  const sorted = batches.slice().sort()
  console.log(
    JSON.stringify({
      layout,
      count,
      batchP50Ms: quantile(sorted, 0.5),
      batchP99Ms: quantile(sorted, 0.99),
      batchP999Ms: quantile(sorted, 0.999),
      batchMaxMs: sorted[sorted.length - 1],
      worstBatchCpuMs: worst.batchCpu,
      worstGapMs: worst.gap,
      worstGapCpuMs: worst.gapCpu,
      busiestSpanMs: worst.busiest,
      gcMajorMaxMs: pauses.major,
      gcMinorMaxMs: pauses.minor,
      gcTotalMs: pauses.total,
      fullGcMs,
      bytesPerPlant,
      insertsPerSecond: count / (insertMs / 1000),
      wallSeconds,
    }),
  )
}

const runAll = (): void => {
  const sizes = (process.env['BENCH_STORE_SIZES'] ?? '1000000,2000000').split(',').map(Number)
  console.log(`In-memory store pauses, ${new Date().toISOString()}, Node ${process.version}, batches of ${BATCH} inserts back to back.`)
  console.log('')
  console.log('| layout | plants | batch p50 | batch p99 | batch p99.9 | worst batch (its CPU) | worst gap between batches (its CPU) | busiest batch or gap, min(wall, CPU) | worst major GC | worst minor GC | GC total | a full GC of the filled heap | heap + buffers per plant | inserts/s |')
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
  const ms = (value: number): string => `${value.toFixed(2)} ms`
  for (const count of sizes) {
    for (const layout of LAYOUTS) {
      const out = execFileSync(process.execPath, [...process.execArgv, new URL(import.meta.url).pathname, layout, String(count)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      const r = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<string, number>
      console.log(
        `| ${layout} | ${count.toLocaleString('en')} | ${ms(r['batchP50Ms'] ?? NaN)} | ${ms(r['batchP99Ms'] ?? NaN)} | ${ms(r['batchP999Ms'] ?? NaN)} | ${ms(r['batchMaxMs'] ?? NaN)} (${ms(r['worstBatchCpuMs'] ?? NaN)}) | ${ms(r['worstGapMs'] ?? NaN)} (${ms(r['worstGapCpuMs'] ?? NaN)}) | ${ms(r['busiestSpanMs'] ?? NaN)} | ${ms(r['gcMajorMaxMs'] ?? NaN)} | ${ms(r['gcMinorMaxMs'] ?? NaN)} | ${Math.round(r['gcTotalMs'] ?? NaN)} ms | ${ms(r['fullGcMs'] ?? NaN)} | ${Math.round(r['bytesPerPlant'] ?? NaN)} B | ${Math.round(r['insertsPerSecond'] ?? NaN).toLocaleString('en')} |`,
      )
    }
  }
}

const [layoutArg, countArg] = process.argv.slice(2)
if (layoutArg === undefined) runAll()
else {
  if (!(LAYOUTS as ReadonlyArray<string>).includes(layoutArg)) throw new Error(`layout: one of ${LAYOUTS.join(', ')}`)
  await fill(layoutArg as Layout, Number(countArg ?? 1_000_000))
}
