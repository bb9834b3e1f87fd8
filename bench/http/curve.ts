// The production path's curve: the service on MongoDB and the driver reference, measured at each
// connection count in the same rounds, their numbers, the service's over the reference's, and the
// goals each count must meet.
import type { Measurement, Round } from './measure.js'
import type { ServerKey } from './options.js'
import { defined, goalText, median, sameRoundRatios, verdict, type Level, type Verdict } from './ratios.js'

export const CURVE_REFERENCE: ServerKey = 'koa-mongodb'
export const CURVE_OURS: ServerKey = 'service-mongodb'
/** The servers measured at every level. */
export const CURVE_KEYS: ReadonlyArray<ServerKey> = [CURVE_REFERENCE, CURVE_OURS]

export type Metric = 'reqPerSec' | 'cpu' | 'p50' | 'p99'

const PICK: Record<Metric, (m: Measurement) => number | undefined> = {
  reqPerSec: (m) => m.reqPerSec,
  cpu: (m) => m.cpuUsPerRequest,
  p50: (m) => m.p50Ms,
  p99: (m) => m.p99Ms,
}

const METRIC_LABEL: Record<Metric, string> = {
  reqPerSec: 'req/s',
  cpu: 'CPU per request',
  p50: 'p50',
  p99: 'p99',
}

/** A ratio over the rounds: the median, and the lowest and highest round. */
export interface Spread {
  readonly median: number | undefined
  readonly low: number | undefined
  readonly high: number | undefined
}

/** One connection count: each server's medians over rounds, and the same-round ratios. */
export interface CurvePoint {
  readonly connections: number
  readonly reference: Readonly<Record<Metric, number | undefined>>
  readonly ours: Readonly<Record<Metric, number | undefined>>
  readonly ratio: Readonly<Record<Metric, Spread>>
  /** Totals over rounds. */
  readonly non2xx: { readonly reference: number; readonly ours: number }
  readonly socketErrors: { readonly reference: number; readonly ours: number }
}

/** A bound on the service's number over the reference's. */
export interface CurveGoal {
  readonly metric: Metric
  readonly bound: number
  readonly atMost: boolean
}

const ONE_CONNECTION: ReadonlyArray<CurveGoal> = [
  { metric: 'cpu', bound: 1.1, atMost: true },
  { metric: 'reqPerSec', bound: 0.9, atMost: false },
  { metric: 'p50', bound: 1.1, atMost: true },
]
const LIGHT_LOAD: ReadonlyArray<CurveGoal> = [
  { metric: 'cpu', bound: 1.1, atMost: true },
  { metric: 'reqPerSec', bound: 0.9, atMost: false },
  { metric: 'p50', bound: 1.2, atMost: true },
]
const HEAVY_LOAD: ReadonlyArray<CurveGoal> = [
  { metric: 'reqPerSec', bound: 1.2, atMost: false },
  { metric: 'p99', bound: 1.0, atMost: true },
]

/** The goals set for a connection count; none for a count the goals do not name. */
export const curveGoals = (connections: number): ReadonlyArray<CurveGoal> =>
  connections === 1 ? ONE_CONNECTION : [5, 10, 20].includes(connections) ? LIGHT_LOAD : connections === 50 ? HEAVY_LOAD : []

const atLevel = (rounds: ReadonlyArray<Round>, connections: number): Level[] =>
  rounds.map(
    (round) =>
      new Map(
        defined(
          CURVE_KEYS.map((key) => {
            const m = round.get(key)?.get(connections)
            return m === undefined ? undefined : ([key, m] as const)
          }),
        ),
      ),
  )

const metrics = <T>(make: (metric: Metric) => T): Record<Metric, T> => ({
  reqPerSec: make('reqPerSec'),
  cpu: make('cpu'),
  p50: make('p50'),
  p99: make('p99'),
})

export const curvePoints = (rounds: ReadonlyArray<Round>, levels: ReadonlyArray<number>): CurvePoint[] =>
  levels.map((connections) => {
    const level = atLevel(rounds, connections)
    const medianOf = (key: ServerKey, metric: Metric) => median(defined(level.map((r) => r.get(key)).map((m) => (m === undefined ? undefined : PICK[metric](m)))))
    const total = (key: ServerKey, pick: (m: Measurement) => number) =>
      defined(level.map((r) => r.get(key))).reduce((sum, m) => sum + pick(m), 0)
    return {
      connections,
      reference: metrics((metric) => medianOf(CURVE_REFERENCE, metric)),
      ours: metrics((metric) => medianOf(CURVE_OURS, metric)),
      ratio: metrics((metric) => {
        const ratios = sameRoundRatios(level, CURVE_OURS, CURVE_REFERENCE, PICK[metric])
        return {
          median: median(ratios),
          low: ratios.length === 0 ? undefined : Math.min(...ratios),
          high: ratios.length === 0 ? undefined : Math.max(...ratios),
        }
      }),
      non2xx: { reference: total(CURVE_REFERENCE, (m) => m.non2xx), ours: total(CURVE_OURS, (m) => m.non2xx) },
      socketErrors: { reference: total(CURVE_REFERENCE, (m) => m.socketErrors), ours: total(CURVE_OURS, (m) => m.socketErrors) },
    }
  })

const plural = (connections: number): string => `${connections} connection${connections === 1 ? '' : 's'}`
const count = (n: number | undefined): string => (n === undefined ? 'n/a' : Math.round(n).toLocaleString('en'))
const us = (n: number | undefined): string => (n === undefined ? 'n/a' : `${Math.round(n)} us`)
const ms = (n: number | undefined): string => (n === undefined ? 'n/a' : `${n.toFixed(2)} ms`)
const spread = ({ median: m, low, high }: Spread): string =>
  m === undefined || low === undefined || high === undefined
    ? 'n/a'
    : low === high
      ? `${m.toFixed(2)}x`
      : `${m.toFixed(2)}x (${low.toFixed(2)}-${high.toFixed(2)})`

/** A level's verdict: met when every goal is, not measured when any ratio is missing. */
export const levelVerdict = (point: CurvePoint): Verdict | 'no goal' => {
  const goals = curveGoals(point.connections)
  if (goals.length === 0) return 'no goal'
  const verdicts = goals.map((g) => verdict(point.ratio[g.metric].median, g.bound, g.atMost))
  return verdicts.includes('not measured') ? 'not measured' : verdicts.includes('not met') ? 'not met' : 'met'
}

/** The curve's table and its goals, one line per connection count. */
export const renderCurve = (points: ReadonlyArray<CurvePoint>, picture: string | undefined): string[] => {
  if (points.length === 0) return []
  const row = (p: CurvePoint) =>
    `| ${p.connections} | ${count(p.reference.reqPerSec)} | ${count(p.ours.reqPerSec)} | ${spread(p.ratio.reqPerSec)} | ` +
    `${us(p.reference.cpu)} | ${us(p.ours.cpu)} | ${spread(p.ratio.cpu)} | ` +
    `${ms(p.reference.p50)} | ${ms(p.ours.p50)} | ${spread(p.ratio.p50)} | ` +
    `${ms(p.reference.p99)} | ${ms(p.ours.p99)} | ${spread(p.ratio.p99)} | ` +
    `${count(p.non2xx.reference)} / ${count(p.socketErrors.reference)} | ${count(p.non2xx.ours)} / ${count(p.socketErrors.ours)} |`
  const goalLine = (p: CurvePoint) => {
    const goals = curveGoals(p.connections)
    if (goals.length === 0) return `- ${plural(p.connections)}: no goal set at this count`
    const parts = goals.map((g) => goalText(METRIC_LABEL[g.metric], p.ratio[g.metric].median, g.bound, g.atMost))
    return `- ${plural(p.connections)}: ${levelVerdict(p)}: ${parts.join('; ')}`
  }
  const judged = points.filter((p) => curveGoals(p.connections).length > 0)
  const all = judged.length === 0 ? undefined : judged.every((p) => levelVerdict(p) === 'met')
  return [
    '',
    'The production path at every load: the service on MongoDB (request log on) and the driver reference ' +
      "(Koa, one middleware, the driver's `insertOne` with the same durability: w majority, journaled, an int64 `_id`), " +
      'each on a fresh wire peer (test/support/mongo-peer, its own process, its CPU not counted), fresh ids, ' +
      'at every connection count in the same rounds. ' +
      'Each number is the median over rounds; each ratio (service ÷ reference) is taken within a round, its median first ' +
      'and the lowest and highest round in brackets.',
    '',
    '| connections | req/s: reference | service | ÷ | CPU per request: reference | service | ÷ | p50: reference | service | ÷ | ' +
      'p99: reference | service | ÷ | non-2xx / socket errors: reference | service |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...points.map(row),
    ...(picture === undefined ? [] : ['', `![The service over the driver reference by connection count: req/s and CPU per request](${picture})`]),
    '',
    'The goals at every load (service ÷ reference, medians of same-round ratios): at 1 connection ' +
      'CPU per request <= 1.1x, req/s >= 0.9x, p50 <= 1.1x; at 5, 10 and 20 connections CPU per request <= 1.1x, ' +
      'req/s >= 0.9x, p50 <= 1.2x; at 50 connections req/s >= 1.2x, p99 <= 1.0x.',
    ...points.map(goalLine),
    ...(all === undefined ? [] : [`Every level measured here meets its goals: ${all ? 'yes' : 'no'}.`]),
  ]
}
