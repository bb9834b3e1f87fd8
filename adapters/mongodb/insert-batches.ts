import type { Cancel, Clock } from '../../core/index.js'
import { DEFAULT_MONGO_TIMEOUTS } from './client-options.js'
import type { PlantDocument } from './plant-document.js'

/** What became of one document sent in an insert: stored, or its `_id` was already taken. */
export type InsertResult = 'inserted' | 'idTaken'

/**
 * Sends one `insert` command of `documents` and settles with each document's own outcome, in
 * order: its result, or the error a lone `insertOne` of it would have thrown. Never rejects.
 * `signal` aborts when the insert's life ends; `msLeft` is that life, from now, for the server's
 * wait for the write concern (see writeConcernTimeoutWithin).
 */
export type SendInsert = (
  documents: ReadonlyArray<PlantDocument>,
  signal: AbortSignal,
  msLeft: number,
) => Promise<ReadonlyArray<InsertResult | Error>>

export interface InsertBatches {
  /**
   * Inserts `document` in one insert with the documents other creates are inserting at the same
   * moment. Settles as a lone `insertOne` would, by `deadline` (a Clock.now() time) at the latest:
   * then, if nothing was answered for it, it rejects with `deadlinePassed()`.
   */
  readonly insert: (document: PlantDocument, deadline: number) => Promise<InsertResult>
}

export interface InsertBatchLimits {
  /** Most documents in one `insert` command. */
  readonly maxDocuments: number
  /**
   * Most inserts on their way at once: the driver's pool of connections to the primary, beyond
   * which an insert would wait in the driver for a connection.
   */
  readonly maxOnWire: number
  /** The whole deadline of a storage call, which a fresh create has. */
  readonly deadlineMs: number
}

/**
 * The limits for a driver pool of `maxPoolSize` connections (0, no limit, leaves inserts without
 * one too) and a storage deadline of `deadlineMs`.
 */
export const insertBatchLimitsFor = (maxPoolSize: number, deadlineMs: number): InsertBatchLimits => ({
  maxDocuments: 256,
  maxOnWire: maxPoolSize > 0 ? maxPoolSize : Infinity,
  deadlineMs,
})

/** The limits with the driver's default pool (100 connections) and the default deadline. */
export const DEFAULT_INSERT_BATCH_LIMITS: InsertBatchLimits = insertBatchLimitsFor(100, DEFAULT_MONGO_TIMEOUTS.operationMs)

export interface InsertBatchSettings {
  readonly clock: Clock
  readonly limits: InsertBatchLimits
  readonly send: SendInsert
  /** The error a create is answered with when its deadline passes first. */
  readonly deadlinePassed: () => Error
  /**
   * Runs `run` once the event loop's current turn has done its I/O (`setImmediate`): the creates
   * whose requests were read in the same turn go together. Never a wait for time.
   */
  readonly afterTurn?: (run: () => void) => void
}

interface Create {
  readonly document: PlantDocument
  readonly deadline: number
  readonly resolve: (result: InsertResult) => void
  readonly reject: (error: unknown) => void
  answered: boolean
}

// The share of the deadline within which an answer is fast enough for creates to wait for it.
const FAST_ANSWER_SHARE = 1 / 100

/** An insert on its way: its creates, and the controller whose signal ends its life. */
interface Insert {
  readonly members: ReadonlyArray<Create>
  readonly controller: AbortController
}

/**
 * Group commit under each create's own deadline, which costs no create what one `insertOne` per
 * create would not.
 *
 * - *When a create goes.* While a connection of the pool is free: at the end of the current run
 *   of microtasks when no insert is on its way (a lone create pays for no wait and no timer of its
 *   own); else, while the database answers fast (the last successful insert took at most a
 *   hundredth of the deadline) and the create has at least twice that left, when the next insert's
 *   answer comes or that long has passed, whichever is first, with every create that came
 *   meanwhile (group commit: at a few connections the driver's work per insert is then shared,
 *   and the wait costs less than a hundredth of the deadline); else at the end of the event
 *   loop's turn, with every create whose request was read in that turn. While every connection
 *   carries an insert, creates wait, as a lone `insertOne` would wait in the driver for a
 *   connection, and go when one comes free.
 * - *Who shares an insert.* Every create waiting that the last insert's answer shows can be
 *   answered in time: with at least as much time left as the last successful insert took, up to
 *   `maxDocuments`, earliest deadline first. A create with less time left than that waits on, and
 *   is answered at its deadline, never sent, as one that waits for a connection in the driver
 *   until its deadline: sent, it would be stored and answered 503 all the same. Until an insert
 *   has succeeded, after one that met no success (its life ended, a write concern error, a
 *   failure), and once a deadline has passed since the last success, there is no such estimate:
 *   each free connection carries one create, the one with the most time left (adaptive LIFO:
 *   under overload the create most likely to be answered in time, where the longest-waiting
 *   would be the first to miss its deadline).
 * - *How long an insert lives.* Until the latest deadline among its creates: its abort signal, and
 *   from it its write concern timeout, follow from that one, so the server's answer, not a cut
 *   socket, ends it in the ordinary case. Each create is answered by its own deadline at the
 *   latest: one whose deadline comes before the answer is answered `deadlinePassed()` then, its
 *   plant maybe stored (and sent again by the driver's retry; the same create sent again is a
 *   replay). No work is done for a create after the latest deadline of its insert, at most one
 *   deadline after the insert was sent, as every deadline is.
 * - *What keeps the time.* One timer, never later than the earliest deadline of a create not yet
 *   answered (waiting or sent), answers every create whose deadline has come and ends the life of
 *   an insert whose creates are all answered. An answer that comes first leaves it set, and it is
 *   moved only for a create with an earlier deadline: creates that go one after another, each
 *   with a later deadline than the one before, set about one timer a deadline between them, not
 *   one each. Each insert has an AbortController of its own: a signal handed to the driver is
 *   never handed to another operation, whose listeners on it are the driver's to keep or remove.
 */
export const makeInsertBatches = ({
  clock,
  limits: { maxDocuments, maxOnWire, deadlineMs },
  send,
  deadlinePassed,
  // eslint-disable-next-line no-restricted-globals -- a turn of the event loop, in which the creates read with this one arrive, not a time
  afterTurn = setImmediate,
}: InsertBatchSettings): InsertBatches => {
  // In arrival order.
  let waiting: Create[] = []
  const onWire = new Set<Insert>()
  let flushScheduled = false
  // Whether creates wait for the next answer, to share an insert with those that come meanwhile.
  let waitingForCompany = false
  let watch: { readonly at: number; readonly cancel: Cancel } | undefined
  // What the last insert took to succeed, and when it did; undefined before the first, and after
  // one that did not.
  let lastSuccess: { readonly tookMs: number; readonly at: number } | undefined

  const flush = (): void => {
    flushScheduled = false
    const now = clock.now()
    // The timer may be late: a create whose deadline has come is answered, never sent.
    if (waiting.some(({ deadline }) => deadline <= now)) {
      for (const create of waiting) if (create.deadline <= now) answer(create)
      waiting = waiting.filter(({ answered }) => !answered)
    }
    while (waiting.length > 0 && onWire.size < maxOnWire) {
      const members = takeNext(now)
      if (members.length === 0) break
      sendInsert(members, now)
    }
  }

  // When the waiting creates go (see makeInsertBatches); `arrived` is the create that just came,
  // none when an insert's answer came.
  const schedule = (arrived?: Create): void => {
    if (flushScheduled) return
    const now = clock.now()
    if (onWire.size > 0 && arrived !== undefined) {
      const waitMs = companyWaitMs(arrived, now)
      if (waitMs !== undefined) {
        // The next answer flushes; this timer bounds the wait, and is left set when it does.
        if (!waitingForCompany) {
          waitingForCompany = true
          clock.setTimer(waitMs, () => {
            waitingForCompany = false
            schedule()
          })
        }
        return
      }
    }
    flushScheduled = true
    if (onWire.size === 0) queueMicrotask(flush)
    else afterTurn(flush)
  }

  // How long a create that came while an insert is on its way waits for the next answer, to go
  // with the creates that come meanwhile; undefined when it goes at the end of this turn.
  const companyWaitMs = (arrived: Create, now: number): number | undefined => {
    const tookMs = estimateAt(now)
    if (tookMs === undefined || tookMs === 0 || tookMs > deadlineMs * FAST_ANSWER_SHARE) return undefined
    return arrived.deadline - now >= 2 * tookMs ? tookMs : undefined
  }

  // What the last successful insert took, trusted for one deadline: an estimate nothing renews
  // (every create held back by it) lapses.
  const estimateAt = (now: number): number | undefined =>
    lastSuccess !== undefined && now - lastSuccess.at <= deadlineMs ? lastSuccess.tookMs : undefined

  // The timer (see makeInsertBatches): set for `deadline` unless it is set for then or before.
  const watchUntil = (deadline: number): void => {
    if (watch !== undefined && watch.at <= deadline) return
    watch?.cancel()
    watch = { at: deadline, cancel: clock.setTimer(deadline - clock.now(), answerDue) }
  }

  const answerDue = (): void => {
    watch = undefined
    const now = clock.now()
    let next = Infinity
    for (const create of waiting) {
      if (create.deadline <= now) answer(create)
      else next = Math.min(next, create.deadline)
    }
    waiting = waiting.filter(({ answered }) => !answered)
    for (const insert of onWire) {
      let open = false
      for (const member of insert.members) {
        if (member.answered) continue
        if (member.deadline <= now) answer(member)
        else {
          open = true
          next = Math.min(next, member.deadline)
        }
      }
      if (!open) endLife(insert)
    }
    if (next !== Infinity) watchUntil(next)
  }

  // Every create of the insert is answered and its latest deadline has come: the driver gives up
  // its wait or its reply, and the connection's place here is given up at once, whatever the
  // driver still does (its back-off before retrying an overloaded server does not listen to the
  // signal; it sends nothing once it ends).
  const endLife = (insert: Insert): void => {
    lastSuccess = undefined
    insert.controller.abort(deadlinePassed())
    release(insert)
  }

  const release = (insert: Insert): void => {
    onWire.delete(insert)
    if (waiting.length > 0) schedule()
  }

  // The creates the next free connection carries (see makeInsertBatches), taken out of `waiting`.
  const takeNext = (now: number): Create[] => {
    const within = estimateAt(now)
    if (within === undefined) {
      // As many as the free connections would carry one by one, in one insert.
      const room = Math.min(maxOnWire - onWire.size, maxDocuments)
      if (waiting.length <= room) {
        const all = waiting
        waiting = []
        return all
      }
      const members = [...waiting].sort((a, b) => b.deadline - a.deadline).slice(0, room)
      const taken = new Set(members)
      waiting = waiting.filter((create) => !taken.has(create))
      return members
    }
    const inTime = waiting.filter(({ deadline }) => deadline - now >= within)
    if (inTime.length === waiting.length && inTime.length <= maxDocuments) {
      waiting = []
      return inTime
    }
    const members = inTime.length > maxDocuments ? inTime.sort((a, b) => a.deadline - b.deadline).slice(0, maxDocuments) : inTime
    const taken = new Set(members)
    waiting = waiting.filter((create) => !taken.has(create))
    return members
  }

  const answer = (create: Create): void => {
    if (create.answered) return
    create.answered = true
    create.reject(deadlinePassed())
  }

  const sendInsert = (members: ReadonlyArray<Create>, sentAt: number): void => {
    const insert: Insert = { members, controller: new AbortController() }
    onWire.add(insert)
    let latest = -Infinity
    for (const { deadline } of members) latest = Math.max(latest, deadline)
    void send(
      members.map(({ document }) => document),
      insert.controller.signal,
      latest - sentAt,
    ).then((outcomes) => {
      // Its life ended first: every create was answered then.
      if (!onWire.has(insert)) return
      let succeeded = false
      members.forEach((member, index) => {
        const outcome = outcomes[index] as InsertResult | Error
        if (!(outcome instanceof Error)) succeeded = true
        if (member.answered) return
        member.answered = true
        if (outcome instanceof Error) member.reject(outcome)
        else member.resolve(outcome)
      })
      const at = clock.now()
      lastSuccess = succeeded ? { tookMs: at - sentAt, at } : undefined
      release(insert)
    })
  }

  return {
    insert: (document, deadline) =>
      new Promise<InsertResult>((resolve, reject) => {
        const create: Create = { document, deadline, resolve, reject, answered: false }
        waiting.push(create)
        watchUntil(deadline)
        if (onWire.size < maxOnWire) schedule(create)
      }),
  }
}
