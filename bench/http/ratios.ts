// Medians, the service's numbers over a reference's taken within one round, and goals on them.
import type { Measurement } from './measure.js'
import type { ServerKey } from './options.js'

/** One round's measurements at one connection count. */
export type Level = ReadonlyMap<ServerKey, Measurement>

export const median = (values: ReadonlyArray<number>): number | undefined => {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

export const defined = <T>(values: ReadonlyArray<T | undefined>): T[] => values.filter((v): v is T => v !== undefined)

/** `ours` over `theirs` in each round that measured both. */
export const sameRoundRatios = (
  rounds: ReadonlyArray<Level>,
  ours: ServerKey,
  theirs: ServerKey,
  pick: (m: Measurement) => number | undefined,
): number[] =>
  defined(
    rounds.map((r) => {
      const a = r.get(ours)
      const b = r.get(theirs)
      const x = a === undefined ? undefined : pick(a)
      const y = b === undefined ? undefined : pick(b)
      return x === undefined || y === undefined || y === 0 ? undefined : x / y
    }),
  )

/** The median over rounds of `ours` over `theirs`, both from the same round. */
export const ratioOf = (
  rounds: ReadonlyArray<Level>,
  ours: ServerKey,
  theirs: ServerKey,
  pick: (m: Measurement) => number | undefined,
): number | undefined => median(sameRoundRatios(rounds, ours, theirs, pick))

export const times = (n: number | undefined): string => (n === undefined ? 'n/a' : `${n.toFixed(2)}x`)

export type Verdict = 'met' | 'not met' | 'not measured'

export const verdict = (value: number | undefined, bound: number, atMost: boolean): Verdict =>
  value === undefined ? 'not measured' : (atMost ? value <= bound : value >= bound) ? 'met' : 'not met'

/** `label <= 1.1x: 1.06x (met)` */
export const goalText = (label: string, value: number | undefined, bound: number, atMost: boolean): string =>
  `${label} ${atMost ? '<=' : '>='} ${bound}x: ${times(value)} (${verdict(value, bound, atMost)})`
