// The report: one Markdown block a reader can paste into the README. Every number is the median
// of the rounds; every ratio is the service's number over the reference's from the same round.
import type { FlatCheck, Measurement } from './measure.js'
import type { ServerKey } from './options.js'
import type { ServerUnderTest } from './servers-under-test.js'
import { describeWorkload, FRESH, MIXED } from './workload.js'

export interface ReportContext {
  readonly date: Date
  readonly loadDescription: string
  readonly threads: number
  readonly connections: number
  readonly durationSeconds: number
  readonly warmupSeconds: number
  readonly rounds: number
  readonly machine: string
}

type Rounds = ReadonlyArray<ReadonlyMap<ServerKey, Measurement>>

export const median = (values: ReadonlyArray<number>): number | undefined => {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

const defined = <T>(values: ReadonlyArray<T | undefined>): T[] => values.filter((v): v is T => v !== undefined)

const medianOf = (rounds: Rounds, key: ServerKey, pick: (m: Measurement) => number | undefined): number | undefined =>
  median(defined(rounds.map((r) => r.get(key)).map((m) => (m === undefined ? undefined : pick(m)))))

const sumOf = (rounds: Rounds, key: ServerKey, pick: (m: Measurement) => number): number =>
  defined(rounds.map((r) => r.get(key))).reduce((total, m) => total + pick(m), 0)

/** The median over rounds of `ours` over `theirs`, both from the same round. */
const ratioOf = (
  rounds: Rounds,
  ours: ServerKey,
  theirs: ServerKey,
  pick: (m: Measurement) => number | undefined,
): number | undefined =>
  median(
    defined(
      rounds.map((r) => {
        const a = r.get(ours)
        const b = r.get(theirs)
        const x = a === undefined ? undefined : pick(a)
        const y = b === undefined ? undefined : pick(b)
        return x === undefined || y === undefined || y === 0 ? undefined : x / y
      }),
    ),
  )

const count = (n: number | undefined): string => (n === undefined ? 'n/a' : Math.round(n).toLocaleString('en'))
const ms = (n: number | undefined): string => (n === undefined ? 'n/a' : `${n.toFixed(1)} ms`)
const us = (n: number | undefined): string => (n === undefined ? 'n/a' : `${Math.round(n)} us`)
const mib = (n: number | undefined): string => (n === undefined ? 'n/a' : `${Math.round(n / 2 ** 20)} MiB`)
const times = (n: number | undefined): string => (n === undefined ? 'n/a' : `${n.toFixed(2)}x`)

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

const goalLine = (label: string, value: number | undefined, bound: number, atMost: boolean): string => {
  const verdict = value === undefined ? 'not measured' : (atMost ? value <= bound : value >= bound) ? 'met' : 'not met'
  return `- ${label} ${atMost ? '<=' : '>='} ${bound}x: ${times(value)} (${verdict})`
}

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

/** Issue 20's goal on MongoDB, against the driver reference measured on the same workload. */
const driverGoals = (reference: ServerKey): ReadonlyArray<Goal> => [
  { label: 'server CPU per request vs the driver reference', reference, pick: cpu, bound: 1.1, atMost: true },
  { label: 'req/s vs the driver reference', reference, pick: reqPerSec, bound: 0.9, atMost: false },
  { label: 'p99 vs the driver reference', reference, pick: p99, bound: 1.2, atMost: true },
]

const COMPARISONS: ReadonlyArray<Comparison> = [
  {
    ours: 'service',
    members: ['node-http', 'fastify', 'koa', 'koa-floor', 'express', 'service'],
    intro: undefined,
    goalsIntro: 'The performance goal, the service against references in the same rounds:',
    goals: [
      { label: 'server CPU per request vs Koa', reference: 'koa', pick: cpu, bound: 1.15, atMost: true },
      { label: 'req/s vs Koa', reference: 'koa', pick: reqPerSec, bound: 0.85, atMost: false },
      { label: 'p99 vs Koa', reference: 'koa', pick: p99, bound: 1.2, atMost: true },
      { label: 'req/s vs Express 5', reference: 'express', pick: reqPerSec, bound: 2.5, atMost: false },
      { label: 'stretch: server CPU per request vs Fastify', reference: 'fastify', pick: cpu, bound: 1.2, atMost: true },
      { label: "toward: server CPU per request vs Koa's floor", reference: 'koa-floor', pick: cpu, bound: 1.25, atMost: true },
    ],
  },
  {
    ours: 'service-mongodb',
    members: ['koa-mongodb', 'service-mongodb'],
    intro:
      'The production path: MongoDB storage on the wire peer (test/support/mongo-peer, a stand-in in its own process, ' +
      "a fresh one per server and round, its CPU not counted), against Koa calling the official driver's insertOne " +
      'with the same durability (w majority, journaled, an int64 `_id`, a majority read after a duplicate key).',
    goalsIntro: 'The goal on MongoDB, the service against the driver reference in the same rounds:',
    goals: driverGoals('koa-mongodb'),
  },
  {
    ours: 'service-mongodb-mixed',
    members: ['koa-mongodb-mixed', 'service-mongodb-mixed'],
    intro: `The same on the mixed workload: ${describeWorkload(MIXED)}. Conflicts are answered 409, so they count as non-2xx.`,
    goalsIntro: 'The same goal on the mixed workload:',
    goals: driverGoals('koa-mongodb-mixed'),
  },
]

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
    ...(goals.length === 0
      ? []
      : ['', comparison.goalsIntro, ...goals.map((g) => goalLine(g.label, ratioOf(rounds, comparison.ours, g.reference, g.pick), g.bound, g.atMost))]),
  ]
}

export const renderReport = (
  context: ReportContext,
  servers: ReadonlyArray<ServerUnderTest>,
  rounds: Rounds,
  flat: FlatCheck | undefined,
  failures: ReadonlyArray<string> = [],
): string => {
  const lines: string[] = [
    `HTTP benchmark, ${context.date.toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
      `Load: ${context.loadDescription}, ${context.threads} thread(s), ${context.connections} connections, ` +
      `${describeWorkload(FRESH)} unless a table says otherwise, ${context.durationSeconds} s per run after ${context.warmupSeconds} s of warm-up, ` +
      `each server a fresh process, median of ${context.rounds} interleaved round(s) (non-2xx and errors: totals). ` +
      `In each table "ours" is the row in bold. Machine: ${context.machine}.`,
    ...COMPARISONS.flatMap((comparison) => renderComparison(comparison, servers, rounds)),
  ]
  if (flat !== undefined) lines.push('', ...renderFlatCheck(flat))
  if (failures.length > 0) lines.push('', 'Failed runs, left out of the medians above:', ...failures.map((f) => `- ${f}`))
  return lines.join('\n')
}

const renderFlatCheck = (flat: FlatCheck): string[] => {
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
  ]
}
