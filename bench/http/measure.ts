// One measurement of one server process, and the runs built from it: interleaved rounds of fresh
// processes, each server at one or several connection counts, and the flat-store check (the
// service empty, then holding many plants).
import { requestsPerSecond, type LoadGenerator, type LoadResult, type LoadShape } from './load.js'
import type { ServerProcess } from './processes.js'
import type { ServerKey } from './options.js'
import { TOKEN, type ServerUnderTest } from './servers-under-test.js'
import { FRESH, type Workload } from './workload.js'

export interface Measurement extends LoadResult {
  readonly reqPerSec: number
  /** Server CPU time (user + system, every thread) per answered request; `undefined` without /proc. */
  readonly cpuUsPerRequest: number | undefined
  /** The server's resident set size right after the run. */
  readonly rssBytes: number | undefined
  /** 2xx answers during warm-up and run: the plants stored, when every request is fresh. */
  readonly stored: number
}

export interface Settings {
  readonly load: LoadGenerator
  readonly shape: LoadShape
  readonly warmupSeconds: number
  /** The first id of a range no other run uses, so every request creates a plant. */
  readonly ids: (size: number) => number
  readonly progress: (line: string) => void
}

/** Hands out disjoint id ranges, kept far below 2^53 (the Lua script and references use doubles). */
export const makeIdRanges = (): ((size: number) => number) => {
  let next = 1
  return (size) => {
    const first = next
    next += Math.max(size, 100_000_000)
    return first
  }
}

const RUN_IDS = 100_000_000
const answeredOk = (result: LoadResult): number => result.requests - result.non2xx

/** Warm-up, then the measured run, reading the process's CPU time around it. */
export const measure = async (
  server: ServerProcess,
  workload: Workload,
  { load, shape, warmupSeconds, ids }: Settings,
): Promise<Measurement> => {
  const warmup =
    warmupSeconds > 0
      ? await load.run(server.url, TOKEN, { ...shape, durationSeconds: warmupSeconds }, ids(RUN_IDS), workload)
      : undefined
  const before = server.cpuSeconds()
  const result = await load.run(server.url, TOKEN, shape, ids(RUN_IDS), workload)
  const after = server.cpuSeconds()
  return {
    ...result,
    reqPerSec: requestsPerSecond(result),
    cpuUsPerRequest:
      before === undefined || after === undefined || result.requests === 0 ? undefined : ((after - before) * 1e6) / result.requests,
    rssBytes: server.rssBytes(),
    stored: answeredOk(result) + (warmup === undefined ? 0 : answeredOk(warmup)),
  }
}

/** One server measured at one connection count. */
export interface Run {
  readonly server: ServerUnderTest
  readonly connections: number
}

/** One round: each server's measurements by connection count. */
export type Round = ReadonlyMap<ServerKey, ReadonlyMap<number, Measurement>>

/** Every round's measurements, and the runs that failed (a server that would not start, say). */
export interface RoundsResult {
  readonly rounds: ReadonlyArray<Round>
  readonly failures: ReadonlyArray<string>
}

/**
 * The runs of a round: the servers in `curve` at each of `levels`, the others at `connections`,
 * and those in `alsoAtOne` at one connection as well. A level's runs sit side by side, so the two
 * servers a ratio compares run minutes apart at most.
 */
export const planRuns = (
  servers: ReadonlyArray<ServerUnderTest>,
  curve: ReadonlyArray<ServerKey>,
  levels: ReadonlyArray<number>,
  connections: number,
  alsoAtOne: ReadonlyArray<ServerKey> = [],
): Run[] => {
  const onCurve = servers.filter((s) => curve.includes(s.key))
  const atOne = connections === 1 ? [] : servers.filter((s) => alsoAtOne.includes(s.key) && !curve.includes(s.key))
  return [
    ...servers.filter((s) => !curve.includes(s.key)).map((server) => ({ server, connections })),
    ...atOne.map((server) => ({ server, connections: 1 })),
    ...levels.flatMap((level) => onCurve.map((server) => ({ server, connections: level }))),
  ]
}

/**
 * Each round starts every run's server afresh, in an order rotated by one each round. A run that
 * fails is reported and left out; the others go on.
 */
export const runRounds = async (runs: ReadonlyArray<Run>, rounds: number, settings: Settings): Promise<RoundsResult> => {
  const results: Array<Map<ServerKey, Map<number, Measurement>>> = []
  const failures: string[] = []
  for (let round = 0; round < rounds; round++) {
    const measured = new Map<ServerKey, Map<number, Measurement>>()
    const order = runs.map((_, i) => runs[(i + round) % runs.length] as Run)
    for (const { server, connections } of order) {
      const where = `round ${round + 1}/${rounds} ${server.key} at ${connections} connection${connections === 1 ? '' : 's'}`
      try {
        const m = await measureFresh(server, `round${round + 1}-c${connections}`, { ...settings, shape: { ...settings.shape, connections } })
        const byLevel = measured.get(server.key) ?? new Map<number, Measurement>()
        measured.set(server.key, byLevel.set(connections, m))
        settings.progress(
          `${where}: ${Math.round(m.reqPerSec)} req/s, ` +
            `${m.cpuUsPerRequest?.toFixed(0) ?? '?'} us CPU/request, p50 ${m.p50Ms.toFixed(2)} ms, p99 ${m.p99Ms.toFixed(1)} ms`,
        )
      } catch (error) {
        failures.push(`${where}: ${String(error).split('\n')[0]}`)
        settings.progress(`${where}: failed: ${String(error)}`)
      }
    }
    results.push(measured)
  }
  return { rounds: results, failures }
}

const measureFresh = async (server: ServerUnderTest, run: string, settings: Settings): Promise<Measurement> => {
  const running = await server.start(run)
  try {
    return await measure(running, server.workload, settings)
  } finally {
    await running.stop()
  }
}

export interface FlatCheck {
  readonly empty: Measurement
  readonly full: Measurement
  /** Plants stored when each measured run started (after its warm-up). */
  readonly plantsEmpty: number
  readonly plantsFull: number
  readonly fill: LoadResult
  /** Growth of the resident set over the fill, per plant the fill stored. */
  readonly rssBytesPerPlant: number | undefined
}

/**
 * One service process: measured nearly empty, filled through its own API (POST /plants, as fast as
 * the load generator goes, bounded by `timeoutSeconds`) to `target` plants, then measured again.
 */
export const runFlatCheck = async (
  service: ServerUnderTest,
  target: number,
  timeoutSeconds: number,
  settings: Settings,
): Promise<FlatCheck> => {
  const running = await service.start('flat')
  try {
    // The fill warms the second measurement for minutes; give the first more than a round's warm-up.
    const empty = await measure(running, FRESH, { ...settings, warmupSeconds: settings.warmupSeconds + settings.shape.durationSeconds })
    const plantsEmpty = empty.stored - answeredOk(empty)
    settings.progress(`flat: nearly empty (${plantsEmpty} plants): ${Math.round(empty.reqPerSec)} req/s`)
    const count = Math.max(0, target - empty.stored)
    const rssBefore = running.rssBytes()
    settings.progress(`flat: storing ${count} plants (at most ${timeoutSeconds} s)`)
    const fill = await settings.load.send(running.url, TOKEN, { ...settings.shape, durationSeconds: timeoutSeconds }, settings.ids(count), count)
    const rssAfter = running.rssBytes()
    const filled = answeredOk(fill)
    settings.progress(`flat: stored ${filled} plants in ${fill.seconds.toFixed(0)} s (${fill.non2xx} non-2xx, ${fill.socketErrors} errors)`)
    const full = await measure(running, FRESH, settings)
    const plantsFull = empty.stored + filled + full.stored - answeredOk(full)
    settings.progress(`flat: filled (${plantsFull} plants): ${Math.round(full.reqPerSec)} req/s`)
    return {
      empty,
      full,
      plantsEmpty,
      plantsFull,
      fill,
      rssBytesPerPlant: rssBefore === undefined || rssAfter === undefined || filled === 0 ? undefined : (rssAfter - rssBefore) / filled,
    }
  } finally {
    await running.stop()
  }
}
