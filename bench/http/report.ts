// The report: one Markdown block a reader can paste into the README. Every number is the median
// of the rounds; every ratio is the service's number over the reference's from the same round.
import type { FlatCheck, Measurement } from './measure.js'
import type { ServerKey } from './options.js'
import type { ServerUnderTest } from './servers-under-test.js'

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

/** The median over rounds of the service's number over this server's, both from the same round. */
const ratioOf = (rounds: Rounds, key: ServerKey, pick: (m: Measurement) => number | undefined): number | undefined =>
  median(
    defined(
      rounds.map((r) => {
        const ours = r.get('service')
        const theirs = r.get(key)
        const a = ours === undefined ? undefined : pick(ours)
        const b = theirs === undefined ? undefined : pick(theirs)
        return a === undefined || b === undefined || b === 0 ? undefined : a / b
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

export const renderReport = (
  context: ReportContext,
  servers: ReadonlyArray<ServerUnderTest>,
  rounds: Rounds,
  flat: FlatCheck | undefined,
  failures: ReadonlyArray<string> = [],
): string => {
  const onGoal = servers.filter((s) => s.key !== 'service-mongodb')
  const mongo = servers.find((s) => s.key === 'service-mongodb')
  const hasService = servers.some((s) => s.key === 'service')
  const lines: string[] = [
    `HTTP benchmark, ${context.date.toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
      `Load: ${context.loadDescription}, ${context.threads} thread(s), ${context.connections} connections, ` +
      `POST /plants with a fresh id each, ${context.durationSeconds} s per run after ${context.warmupSeconds} s of warm-up, ` +
      `each server a fresh process, median of ${context.rounds} interleaved round(s) (non-2xx and errors: totals). ` +
      `Machine: ${context.machine}.`,
    '',
    `| server ${METRICS} service req/s ÷ this | service CPU ÷ this | service p99 ÷ this |`,
    `|---${METRIC_ALIGN}---:|---:|---:|`,
    ...onGoal.map((s) => {
      const ratios =
        s.key === 'service' || !hasService
          ? ['', '', '']
          : [
              times(ratioOf(rounds, s.key, (m) => m.reqPerSec)),
              times(ratioOf(rounds, s.key, (m) => m.cpuUsPerRequest)),
              times(ratioOf(rounds, s.key, (m) => m.p99Ms)),
            ]
      return `| ${s.label} | ${metricCells(rounds, s.key)} | ${ratios.join(' | ')} |`
    }),
  ]
  const has = (key: ServerKey) => servers.some((s) => s.key === key)
  if (hasService && (has('koa') || has('express') || has('fastify'))) {
    lines.push('', 'The performance goal, the service against references in the same rounds:')
    if (has('koa')) {
      lines.push(
        goalLine('server CPU per request vs Koa', ratioOf(rounds, 'koa', (m) => m.cpuUsPerRequest), 1.15, true),
        goalLine('req/s vs Koa', ratioOf(rounds, 'koa', (m) => m.reqPerSec), 0.85, false),
        goalLine('p99 vs Koa', ratioOf(rounds, 'koa', (m) => m.p99Ms), 1.2, true),
      )
    }
    if (has('express')) lines.push(goalLine('req/s vs Express 5', ratioOf(rounds, 'express', (m) => m.reqPerSec), 2.5, false))
    if (has('fastify')) {
      lines.push(goalLine('stretch: server CPU per request vs Fastify', ratioOf(rounds, 'fastify', (m) => m.cpuUsPerRequest), 1.2, true))
    }
  }
  if (mongo !== undefined) {
    lines.push(
      '',
      'Not against the goal: the service with MongoDB storage on the wire peer (test/support/mongo-peer, an in-memory stand-in ' +
        'in its own process, whose CPU is not counted).',
      '',
      `| server ${METRICS}`,
      `|---${METRIC_ALIGN}`,
      `| ${mongo.label} | ${metricCells(rounds, mongo.key)} |`,
    )
  }
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
