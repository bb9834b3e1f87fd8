import {
  MongoBulkWriteError,
  MongoServerError,
  MongoWriteConcernError,
  type Abortable,
  type BulkWriteOptions,
  type Collection,
  type InsertOneOptions,
} from 'mongodb'
import type { PlantDocument } from './plant-document.js'

/** What became of one document sent in a batch: stored, or its `_id` was already taken. */
export type InsertResult = 'inserted' | 'idTaken'

/** One store call's bound: its signal aborts at `deadline` (a `performance.now()` time). */
export interface CallBound {
  readonly signal: AbortSignal
  readonly deadline: number
}

export interface InsertBatches {
  /**
   * Inserts `document` together with the documents other calls are inserting at the same moment.
   * Settles as a lone `insertOne` would: resolves when the write is acknowledged with the
   * collection's write concern (or its `_id` is found taken), rejects with the error `insertOne`
   * would have thrown for it.
   */
  readonly insert: (document: PlantDocument, bound: CallBound) => Promise<InsertResult>
}

export interface InsertBatchLimits {
  /** Most documents in one `insert` command. */
  readonly maxDocuments: number
  /** Most batches on the wire at once; the documents arriving meanwhile wait for the next batch. */
  readonly maxInFlight: number
}

/**
 * Each batch is one command, one round trip and one journal commit for all of its documents,
 * where the driver spends per operation what its CPU profiles show (a session, a connection
 * checkout, listeners on the signal, a reply to parse), so under load a plant costs the service
 * a fraction of a lone insert (docs/performance.md). A call never waits for a batch to fill: while
 * fewer than `maxInFlight` batches are on the wire, its document goes at once, with those of the
 * calls made in the same run of microtasks.
 */
export const DEFAULT_INSERT_BATCH_LIMITS: InsertBatchLimits = { maxDocuments: 256, maxInFlight: 2 }

interface Waiting {
  readonly document: PlantDocument
  readonly bound: CallBound
  readonly resolve: (result: InsertResult) => void
  readonly reject: (error: unknown) => void
}

/**
 * Batches of unordered inserts into `plants`. A batch carries the signal of the member whose
 * deadline comes first, so no member is answered "deadline passed" while the batch can still be
 * sent (or retried) for it: a write answered 503 is never sent afterwards. A member whose
 * deadline passes while it waits is not sent at all.
 */
export const makeInsertBatches = (
  plants: Collection<PlantDocument>,
  { maxDocuments, maxInFlight }: InsertBatchLimits = DEFAULT_INSERT_BATCH_LIMITS,
): InsertBatches => {
  let waiting: Waiting[] = []
  let inFlight = 0
  let scheduled = false

  // Sent once the calls made together have joined (the current run of microtasks), and at once
  // while fewer than maxInFlight batches are on the wire: a create never waits for company, nor
  // for a turn of the event loop. Only while the batches on the wire are as many as allowed do
  // creates wait, and then go together.
  const schedule = (): void => {
    if (scheduled || inFlight >= maxInFlight) return
    scheduled = true
    queueMicrotask(sendWhatWaits)
  }

  const sendWhatWaits = (): void => {
    scheduled = false
    while (inFlight < maxInFlight && waiting.length > 0) {
      const members = takeLive(maxDocuments)
      if (members.length === 0) return
      inFlight += 1
      // send settles every member itself and never rejects.
      void send(plants, members).then(() => {
        inFlight -= 1
        if (waiting.length > 0) schedule()
      })
    }
  }

  // The first `limit` waiting members whose deadline has not passed; those whose has are let go
  // (their call has already answered).
  const takeLive = (limit: number): Waiting[] => {
    const members: Waiting[] = []
    let taken = 0
    for (; taken < waiting.length && members.length < limit; taken += 1) {
      const member = waiting[taken] as Waiting
      if (member.bound.signal.aborted) member.reject(member.bound.signal.reason)
      else members.push(member)
    }
    waiting = taken === waiting.length ? [] : waiting.slice(taken)
    return members
  }

  return {
    insert: (document, bound) =>
      new Promise<InsertResult>((resolve, reject) => {
        waiting.push({ document, bound, resolve, reject })
        schedule()
      }),
  }
}

const send = async (plants: Collection<PlantDocument>, members: ReadonlyArray<Waiting>): Promise<void> => {
  const [only] = members
  if (members.length === 1 && only !== undefined) return sendAlone(plants, only)
  const options: BulkWriteOptions & Abortable = { ordered: false, signal: earliestDeadline(members).bound.signal }
  try {
    await plants.insertMany(
      members.map(({ document }) => document),
      options,
    )
    for (const member of members) member.resolve('inserted')
  } catch (error) {
    const outcomes = outcomesOrAll(error)
    members.forEach((member, index) => {
      const outcome = outcomes(index)
      if (outcome instanceof Error) member.reject(outcome)
      else member.resolve(outcome)
    })
  }
}

// A batch of one is a plain insertOne: the bulk write API costs the driver more per call, which a
// lone create (a quiet service, one client) would pay for nothing.
const sendAlone = async (plants: Collection<PlantDocument>, { document, bound, resolve, reject }: Waiting): Promise<void> => {
  try {
    // The driver reads the signal for every operation (server selection, connection checkout),
    // though its types declare it on reads only.
    const options: InsertOneOptions & Abortable = { signal: bound.signal }
    await plants.insertOne(document, options)
    resolve('inserted')
  } catch (error) {
    if (error instanceof MongoServerError && isIdIndexDuplicate(error.code, error.errorResponse.keyPattern, error.message)) resolve('idTaken')
    else reject(error)
  }
}

// A failure the reading of outcomes did not foresee fails every member with it, rather than none.
const outcomesOrAll = (error: unknown): ((index: number) => InsertResult | Error) => {
  try {
    return outcomesOf(error)
  } catch {
    return () => asError(error)
  }
}

const earliestDeadline = (members: ReadonlyArray<Waiting>): Waiting =>
  members.reduce((earliest, member) => (member.bound.deadline < earliest.bound.deadline ? member : earliest))

/**
 * Each member's outcome of a failed batch, as a lone `insertOne` of its document would have had
 * it: the same error class with the same code, so the adapter's one classification of failures
 * holds for batches unchanged. The driver's constructors are used as the driver itself uses them
 * for `insertOne`'s replies (a write error becomes a MongoServerError, a write concern error a
 * MongoWriteConcernError).
 */
const outcomesOf = (error: unknown): ((index: number) => InsertResult | Error) => {
  // Not a reply at all (the network, the deadline, a command refused as a whole): every member
  // met it, as each would alone.
  if (!(error instanceof MongoBulkWriteError)) return () => asError(error)
  const cause: unknown = error.errorResponse
  if (cause instanceof Error) return () => cause
  // A write concern error comes before the write errors, as for insertOne: the driver reads the
  // reply's write concern first, whatever the documents met.
  const concern = error.result.getWriteConcernError()
  if (concern !== undefined) {
    const failed = new MongoWriteConcernError({ ok: 1, writeConcernError: concern.toJSON() })
    return () => failed
  }
  const writeErrors = error.result.getWriteErrors()
  if (writeErrors.length === 0) return () => error
  const byIndex = new Map(writeErrors.map((writeError) => [writeError.index, writeError] as const))
  return (index) => {
    const writeError = byIndex.get(index)
    if (writeError === undefined) return 'inserted'
    if (isIdIndexDuplicate(writeError.code, undefined, writeError.errmsg)) return 'idTaken'
    // Without the document (`op`): an error must not carry a plant into the logs.
    const { code, errmsg = '', errInfo } = writeError
    return new MongoServerError(errInfo === undefined ? { code, errmsg } : { code, errmsg, errInfo })
  }
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)))

/**
 * Whether a write error is a duplicate key in the `_id` index: mongod (4.4+) names the index's key
 * pattern, and its message names the index for routers and bulk replies that leave the pattern out.
 */
const isIdIndexDuplicate = (code: unknown, keyPattern: unknown, message: string | undefined): boolean =>
  code === 11000 && (isIdKeyPattern(keyPattern) || / index: _id_ /.test(message ?? ''))

const isIdKeyPattern = (pattern: unknown): boolean =>
  typeof pattern === 'object' && pattern !== null && Object.keys(pattern).join() === '_id'
