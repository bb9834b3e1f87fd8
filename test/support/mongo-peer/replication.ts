// The peer's oplog, after mongod's replication coordinator: every write is given the next optime,
// and a majority of the (imaginary) replica set has the writes up to the majority commit point,
// which only moves forward, in oplog order, so no write is majority-committed before an earlier
// one. Write concern "majority" waits for the commit point to reach the client's last optime;
// read concern "majority" reads the documents at or before it.
import { Binary, Long, Timestamp, type Document } from 'bson'

/** A point in the oplog: its place (`index`), its timestamp, the election term it was written in. */
export interface OpTime {
  readonly index: number
  readonly ts: Timestamp
  readonly term: number
  readonly wallTime: Date
}

export interface Replication {
  /** The optime of a new write in `term`, which a majority has `lagMs` later, and never before the writes before it. */
  readonly apply: (lagMs: number, term: number) => OpTime
  /** The last write applied (mongod's "system last optime"). */
  readonly lastApplied: () => OpTime
  /** The majority commit point: the last write a majority has. */
  readonly committed: () => OpTime
  readonly isCommitted: (index: number) => boolean
  /** Resolves when the commit point next moves, after `ms`, or when `signal` aborts. */
  readonly nextCommit: (ms: number, signal: AbortSignal) => Promise<void>
}

export const makeReplication = (): Replication => {
  const start: OpTime = { index: 0, ts: timestampAt(secondsNow(), 1), term: 1, wallTime: new Date() }
  let applied = start
  let committed = start
  // The writes not yet majority-committed, each group with the moment a majority has it.
  let lastDueAt = 0
  let pending: { op: OpTime; readonly dueAt: number } | undefined
  const waiting = new Set<() => void>()
  const commitUpTo = (op: OpTime): void => {
    if (op.index <= committed.index) return
    committed = op
    for (const wake of [...waiting]) wake()
  }
  return {
    apply: (lagMs, term) => {
      const seconds = Math.max(secondsNow(), applied.ts.t)
      const op: OpTime = {
        index: applied.index + 1,
        ts: timestampAt(seconds, seconds === applied.ts.t ? applied.ts.i + 1 : 1),
        term,
        wallTime: new Date(),
      }
      applied = op
      const dueAt = Math.max(performance.now() + lagMs, lastDueAt)
      if (lagMs <= 0 && committed.index === op.index - 1) {
        commitUpTo(op)
        return op
      }
      // Writes due at the same moment (the documents of one insert) share one timer.
      if (pending !== undefined && pending.dueAt === dueAt) {
        pending.op = op
        return op
      }
      lastDueAt = dueAt
      const group = { op, dueAt }
      pending = group
      setTimeout(() => {
        if (pending === group) pending = undefined
        commitUpTo(group.op)
      }, dueAt - performance.now()).unref()
      return op
    },
    lastApplied: () => applied,
    committed: () => committed,
    isCommitted: (index) => index <= committed.index,
    nextCommit: (ms, signal) =>
      new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer)
          waiting.delete(done)
          signal.removeEventListener('abort', done)
          resolve()
        }
        const timer = setTimeout(done, Math.max(0, ms))
        waiting.add(done)
        signal.addEventListener('abort', done, { once: true })
      }),
  }
}

const secondsNow = (): number => Math.floor(Date.now() / 1000)

const timestampAt = (t: number, i: number): Timestamp => new Timestamp({ t, i })

/** Orders two timestamps as mongod does: by seconds, then by increment. */
export const compareTimestamps = (a: Timestamp, b: Timestamp): number => a.t - b.t || a.i - b.i

/** An optime as mongod writes it in a reply: `{ts, t}`. */
export const wireOpTime = (op: OpTime): Document => ({ ts: op.ts, t: Long.fromNumber(op.term) })

/**
 * The `$clusterTime` mongod gossips in every reply: the time of its last write, signed. Without
 * authentication mongod signs with key id 0 and an all-zero hash.
 */
export const clusterTimeOf = (replication: Replication): Document => ({
  clusterTime: replication.lastApplied().ts,
  signature: { hash: new Binary(Buffer.alloc(20)), keyId: Long.ZERO },
})
