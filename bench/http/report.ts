// The report: one Markdown block a reader can paste into docs/performance.md. Every number is the
// median of the rounds; every ratio is the service's number over the reference's from the same
// round. Servers measured at one connection count get a table each; the MongoDB path and its
// reference, measured at several, get the curve.
import { CURVE_KEYS, renderCurve, type CurvePoint } from './curve.js'
import type { FlatCheck, Measurement, Round } from './measure.js'
import type { ServerKey } from './options.js'
import { defined, goalText, median, ratioOf, times, type Level } from './ratios.js'
import type { ServerUnderTest } from './servers-under-test.js'
import { describeWorkload, FRESH, MIXED } from './workload.js'

export { median } from './ratios.js'

export interface ReportContext {
  readonly date: Date
  readonly loadDescription: string
  readonly threads: number
  readonly connections: number
  readonly durationSeconds: number
  readonly warmupSeconds: number
  readonly rounds: number
  readonly machine: string
  /** Which cores each process ran on, or why they were not pinned. */
  readonly pinning: string
  /** The whole run, measured. */
  readonly elapsedSeconds: number
  /** Where the curve's picture is, relative to the page that shows the report; `undefined`: none. */
  readonly picture: string | undefined
}

type Rounds = ReadonlyArray<Level>

/** Each round's measurements at one connection count. */
export const atConnections = (rounds: ReadonlyArray<Round>, connections: number): Level[] =>
  rounds.map(
    (round) =>
      new Map(
        defined(
          [...round].map(([key, byLevel]) => {
            const m = byLevel.get(connections)
            return m === undefined ? undefined : ([key, m] as const)
          }),
        ),
      ),
  )

const medianOf = (rounds: Rounds, key: ServerKey, pick: (m: Measurement) => number | undefined): number | undefined =>
  median(defined(rounds.map((r) => r.get(key)).map((m) => (m === undefined ? undefined : pick(m)))))

const sumOf = (rounds: Rounds, key: ServerKey, pick: (m: Measurement) => number): number =>
  defined(rounds.map((r) => r.get(key))).reduce((total, m) => total + pick(m), 0)

const count = (n: number | undefined): string => (n === undefined ? 'n/a' : Math.round(n).toLocaleString('en'))
const ms = (n: number | undefined): string => (n === undefined ? 'n/a' : `${n.toFixed(1)} ms`)
const us = (n: number | undefined): string => (n === undefined ? 'n/a' : `${Math.round(n)} us`)
const mib = (n: number | undefined): string => (n === undefined ? 'n/a' : `${Math.round(n / 2 ** 20)} MiB`)

const METRICS = '| req/s | p50 | p99 | server CPU per request | RSS after the run | non-2xx | socket errors |'
const METRIC_ALIGN = '|---:|---:|---:|---:|---:|---:|---:|'

const metricCells = (rounds: Rounds, key: ServerKey): string =>
  [
    count(medianOf(rounds, key, (m) => m.reqPerSec)),
    ms(medianOf(rounds, key, (m) => m.p50Ms)),
    ms(medianOf(rounds, key, (m) => m.p99Ms)),
    us(medianOf(rounds, key, (m) => m.cpuUsPerRequest)),
    mib(medianOf(rounds, key, (m) => m.rssBytes)),
    count(sumOf(rounds, key, (m) => m.non2xx)),
    count(sumOf(rounds, key, (m) => m.socketErrors)),
  ].join(' | ')

const plural = (connections: number): string => `${connections} connection${connections === 1 ? '' : 's'}`

const goalLine = (label: string, value: number | undefined, bound: number, atMost: boolean): string =>
  `- ${goalText(label, value, bound, atMost)}`

const cpu = (m: Measurement) => m.cpuUsPerRequest
const reqPerSec = (m: Measurement) => m.reqPerSec
const p99 = (m: Measurement) => m.p99Ms

/** A goal: the service's number over a reference's, bounded. */
interface Goal {
  readonly label: string
  readonly reference: ServerKey
  readonly pick: (m: Measurement) => number | undefined
  readonly bound: number
  readonly atMost: boolean
}

/** A table of servers measured in the same rounds: `ours` against each of the others. */
interface Comparison {
  readonly ours: ServerKey
  readonly members: ReadonlyArray<ServerKey>
  /** What the table is, printed before it; the first section has the report's heading instead. */
  readonly intro: string | undefined
  readonly goals: ReadonlyArray<Goal>
  readonly goalsIntro: string
}

/** The goal on MongoDB at one connection count, against the driver reference on the same workload. */
const driverGoals = (reference: ServerKey): ReadonlyArray<Goal> => [
  { label: 'server CPU per request vs the driver reference', reference, pick: cpu, bound: 1.1, atMost: true },
  { label: 'req/s vs the driver reference', reference, pick: reqPerSec, bound: 0.9, atMost: false },
  { label: 'p99 vs the driver reference', reference, pick: p99, bound: 1.2, atMost: true },
]

/** The servers in memory, measured at the tables' connection count and at one connection. */
export const IN_MEMORY_KEYS: ReadonlyArray<ServerKey> = ['node-http', 'fastify', 'koa', 'koa-same-work', 'koa-floor', 'express', 'service']

// Koa doing the service's work in one middleware is the least the service could cost on Koa;
// minimal Koa, with a router and a body parser, is how a Koa service is usually written. Koa's
// floor is in the table as a measure, not a goal: it stores nothing, so nothing that does can match it.
const IN_MEMORY_GOALS_AT_50: ReadonlyArray<Goal> = [
  { label: 'server CPU per request vs Koa doing the same work', reference: 'koa-same-work', pick: cpu, bound: 1.3, atMost: true },
  { label: 'server CPU per request vs minimal Koa', reference: 'koa', pick: cpu, bound: 0.8, atMost: true },
  { label: "p99 vs minimal Koa's", reference: 'koa', pick: p99, bound: 1.0, atMost: true },
  { label: 'req/s vs minimal Koa', reference: 'koa', pick: reqPerSec, bound: 0.85, atMost: false },
  { label: 'req/s vs Express 5', reference: 'express', pick: reqPerSec, bound: 2.5, atMost: false },
  { label: 'stretch: server CPU per request vs Fastify', reference: 'fastify', pick: cpu, bound: 1.2, atMost: true },
]

const IN_MEMORY_GOALS_AT_1: ReadonlyArray<Goal> = [
  { label: 'server CPU per request vs Koa doing the same work', reference: 'koa-same-work', pick: cpu, bound: 1.1, atMost: true },
  { label: 'server CPU per request vs minimal Koa', reference: 'koa', pick: cpu, bound: 0.8, atMost: true },
]

/** The in-memory table at a connection count; goals are set at 50 connections and at 1. */
const inMemory = (connections: number, first: boolean): Comparison => ({
  ours: 'service',
  members: IN_MEMORY_KEYS,
  intro: first
    ? undefined
    : `The same servers in memory at ${plural(connections)}, in the same rounds: one request in flight, so no cost is shared among requests read in the same turn of the event loop.`,
  goalsIntro:
    connections === 50 || connections === 1
      ? `The performance goals at ${plural(connections)}, the service against references in the same rounds:`
      : `No goal is set in memory at ${plural(connections)}; they are set at 50 and at 1.`,
  goals: connections === 50 ? IN_MEMORY_GOALS_AT_50 : connections === 1 ? IN_MEMORY_GOALS_AT_1 : [],
})

const MIXED_ON_MONGODB: Comparison = {
  ours: 'service-mongodb-mixed',
  members: ['koa-mongodb-mixed', 'service-mongodb-mixed'],
  intro:
    'The production path on the mixed workload: MongoDB storage on the wire peer (test/support/mongo-peer, a stand-in in its own process, ' +
    "a fresh one per server and round, its CPU not counted), against Koa calling the official driver's insertOne " +
    'with the same durability (w majority, journaled, an int64 `_id`, a majority read after a duplicate key). ' +
    `The workload: ${describeWorkload(MIXED)}. Conflicts are answered 409, so they count as non-2xx.`,
  goalsIntro: 'The goal on the mixed workload, the service against the driver reference in the same rounds:',
  goals: driverGoals('koa-mongodb-mixed'),
}

const renderComparison = (comparison: Comparison, servers: ReadonlyArray<ServerUnderTest>, rounds: Rounds): string[] => {
  const present = servers.filter((s) => comparison.members.includes(s.key))
  if (present.length === 0) return []
  const hasOurs = present.some((s) => s.key === comparison.ours)
  const rows = present.map((s) => {
    const ratios =
      s.key === comparison.ours || !hasOurs
        ? ['', '', '']
        : [ratioOf(rounds, comparison.ours, s.key, reqPerSec), ratioOf(rounds, comparison.ours, s.key, cpu), ratioOf(rounds, comparison.ours, s.key, p99)].map(times)
    return `| ${s.label} | ${metricCells(rounds, s.key)} | ${ratios.join(' | ')} |`
  })
  const goals = hasOurs ? comparison.goals.filter((g) => present.some((s) => s.key === g.reference)) : []
  return [
    ...(comparison.intro === undefined ? [] : ['', comparison.intro]),
    '',
    `| server ${METRICS} ours ÷ this: req/s | CPU | p99 |`,
    `|---${METRIC_ALIGN}---:|---:|---:|`,
    ...rows,
    ...(!hasOurs || (goals.length === 0 && comparison.goals.length > 0)
      ? []
      : ['', comparison.goalsIntro, ...goals.map((g) => goalLine(g.label, ratioOf(rounds, comparison.ours, g.reference, g.pick), g.bound, g.atMost))]),
  ]
}

export const renderReport = (
  context: ReportContext,
  servers: ReadonlyArray<ServerUnderTest>,
  rounds: ReadonlyArray<Round>,
  flat: FlatCheck | undefined,
  failures: ReadonlyArray<string> = [],
  curve: ReadonlyArray<CurvePoint> = [],
): string => {
  const single = atConnections(rounds, context.connections)
  const atOneCount = servers.filter((s) => !CURVE_KEYS.includes(s.key))
  const light = context.connections === 1 ? [] : atConnections(rounds, 1)
  const lightMeasured = light.some((round) => IN_MEMORY_KEYS.some((key) => round.has(key)))
  const lines: string[] = [
    `HTTP benchmark, ${context.date.toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
      `Load: ${context.loadDescription}, ${context.threads} thread(s), ${describeWorkload(FRESH)} unless a table says otherwise, ` +
      `${context.durationSeconds} s per run after ${context.warmupSeconds} s of warm-up, ` +
      `each server a fresh process per run, median of ${context.rounds} interleaved round(s) (non-2xx and errors: totals). ` +
      `Connections: ${context.connections} for the tables${lightMeasured ? ' (in memory also 1)' : ''}, ` +
      `${curve.map((p) => p.connections).join(', ') || 'none'} for the curve. ` +
      `In each table "ours" is the row in bold. Machine: ${context.machine}. Pinning: ${context.pinning}. ` +
      `The whole run took ${formatDuration(context.elapsedSeconds)}.`,
    ...renderComparison(inMemory(context.connections, true), atOneCount, single),
    ...(lightMeasured ? renderComparison(inMemory(1, false), atOneCount, light) : []),
    ...renderCurve(curve, context.picture),
    ...renderComparison(MIXED_ON_MONGODB, atOneCount, single),
  ]
  if (flat !== undefined) lines.push('', ...renderFlatCheck(flat, medianOf(single, 'koa', p99)))
  if (failures.length > 0) lines.push('', 'Failed runs, left out of the medians above:', ...failures.map((f) => `- ${f}`))
  return lines.join('\n')
}

export const formatDuration = (seconds: number): string => {
  const minutes = Math.floor(seconds / 60)
  return minutes === 0 ? `${Math.round(seconds)} s` : `${minutes} min ${Math.round(seconds - minutes * 60)} s`
}

const renderFlatCheck = (flat: FlatCheck, koaP99: number | undefined): string[] => {
  const row = (label: string, plants: number, m: Measurement) =>
    `| ${label} | ${count(plants)} | ${count(m.reqPerSec)} | ${ms(m.p99Ms)} | ${us(m.cpuUsPerRequest)} | ${mib(m.rssBytes)} |`
  return [
    'Flat to many stored plants: one service process (in memory), measured, filled through POST /plants, measured again.',
    '',
    '| store | plants stored | req/s | p99 | server CPU per request | RSS after the run |',
    '|---|---:|---:|---:|---:|---:|',
    row('nearly empty', flat.plantsEmpty, flat.empty),
    row('filled', flat.plantsFull, flat.full),
    '',
    `req/s filled ÷ nearly empty: ${times(flat.full.reqPerSec / flat.empty.reqPerSec)}; ` +
      `RSS growth per stored plant: ${flat.rssBytesPerPlant === undefined ? 'n/a' : `${Math.round(flat.rssBytesPerPlant)} B`} ` +
      `(fill: ${count(flat.fill.requests - flat.fill.non2xx)} plants in ${flat.fill.seconds.toFixed(0)} s, ` +
      `${count(flat.fill.non2xx)} non-2xx, ${count(flat.fill.socketErrors)} socket errors).`,
    '',
    'The goal in memory with many plants (the filled run against the median of minimal Koa\'s runs above):',
    goalLine(
      `p99 with ${count(flat.plantsFull)} plants stored vs minimal Koa's`,
      koaP99 === undefined || koaP99 === 0 ? undefined : flat.full.p99Ms / koaP99,
      1.2,
      true,
    ),
  ]
}
