// What the load sends: every request a fresh plant, or the mixed workload in which some requests
// repeat an earlier plant (a replay, answered 200 with what is stored) or its id with another name
// (a conflict, answered 409). Replays and conflicts take storage's read path; on MongoDB a
// duplicate key and then a majority read. Both load generators follow this one description.

export interface Workload {
  readonly name: 'fresh' | 'mixed'
  /** Of every 100 requests, how many replay and how many conflict (the rest are fresh). */
  readonly replayPercent: number
  readonly conflictPercent: number
  /** How many fresh requests back a replay or a conflict reaches: long answered when it is sent. */
  readonly lag: number
}

export const FRESH: Workload = { name: 'fresh', replayPercent: 0, conflictPercent: 0, lag: 0 }
export const MIXED: Workload = { name: 'mixed', replayPercent: 20, conflictPercent: 10, lag: 1000 }

export const describeWorkload = (workload: Workload): string =>
  workload.name === 'fresh'
    ? 'POST /plants with a fresh id each'
    : `POST /plants, of every 100 requests ${workload.replayPercent} replays and ${workload.conflictPercent} conflicts ` +
      `(the plant sent ${workload.lag} fresh requests earlier, again or under another name), the rest fresh`

/**
 * The body of a stream's n-th request (from 0), given how many fresh ids it has used: its id is the
 * fresh one at `fresh`, or the one `lag` before it for a replay or a conflict.
 */
export const nthRequest = (
  workload: Workload,
  n: number,
  fresh: number,
): { readonly kind: 'fresh' | 'replay' | 'conflict'; readonly freshIndex: number } => {
  const slot = n % 100
  if (fresh >= workload.lag && slot < workload.replayPercent + workload.conflictPercent) {
    return { kind: slot < workload.replayPercent ? 'replay' : 'conflict', freshIndex: fresh - workload.lag }
  }
  return { kind: 'fresh', freshIndex: fresh }
}
