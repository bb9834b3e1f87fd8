import type { Abortable, BulkWriteOptions, Collection, InsertOneOptions, WriteConcern } from 'mongodb'
import { DEFAULT_MONGO_TIMEOUTS } from './client-options.js'
import type { PlantDocument } from './plant-document.js'
import { BSON, MongoBulkWriteError, MongoServerError, MongoWriteConcernError } from './peers.js'

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
  /**
   * Inserts on the wire below which a create goes at once (with the creates made in the same
   * instant). From this many on, the creates arriving wait for one of them to end, to go
   * together, but at most `maxWaitMs`.
   */
  readonly maxInFlight: number
  /**
   * Longest a create waits for an insert on the wire to end. Then it goes in an insert of its
   * own, with the creates that waited with it, as long as fewer than `maxOnWire` are on the wire.
   */
  readonly maxWaitMs: number
  /**
   * Most inserts on the wire at once: the driver's pool of connections to the primary, beyond
   * which an insert would wait in the driver for a connection. With this many on the wire,
   * creates wait for one to end however long it takes, as a lone insertOne waits for a connection.
   */
  readonly maxOnWire: number
  /**
   * Most time between the earliest and the latest deadline of the creates of one insert: the
   * insert is sent under the earliest (see makeInsertBatches), so that is the most before its own
   * deadline a create can be answered 503. The insert that takes the last place on the wire is not
   * held to it (see makeInsertBatches).
   */
  readonly maxDeadlineSpreadMs: number
}

/**
 * The write concern an insert is sent with, given the time left before the deadline it is sent
 * under; undefined leaves the collection's own.
 */
export type WriteConcernWithin = (msLeft: number) => WriteConcern | undefined

/**
 * Each batch is one command, one round trip and one journal commit for all of its documents,
 * where the driver spends per operation what its CPU profiles show (a session, a connection
 * checkout, listeners on the signal, a reply to parse), so under load a plant costs the service
 * a fraction of a lone insert (docs/performance.md). A batch forms only where it costs its
 * creates nothing they would notice: a create never waits for company; while `maxInFlight`
 * inserts are on the wire it waits for one of them, but at most a hundredth of the call's
 * deadline, then goes with whatever waited with it. So a create keeps 99 % of its deadline for
 * its own insert however slow the database, and a busy event loop (turns of a few ms under load,
 * when replies wait to be read) is not taken for a slow database, which would split batches
 * into more commands than the CPU can afford.
 *
 * The same hundredth bounds the deadlines of one batch's creates, and so how early a create can
 * be answered 503 for a batch-mate's deadline, while the pool has a connection to spare. With every
 * connection of the pool carrying an insert, one comes back every `answer time / maxPoolSize` on
 * average and must carry every create that arrived meanwhile, or the queue grows until creates
 * wait out their deadlines (with a pool of 10 and answers in a fifth of the deadline, half of the
 * creates were answered 503 though stored): so the insert that takes the last connection takes
 * every create waiting, up to `maxDocuments`, whatever their deadlines. A pool without a limit
 * (`maxPoolSize` 0) leaves the inserts on the wire without one too.
 */
export const insertBatchLimitsFor = (maxPoolSize: number, deadlineMs: number): InsertBatchLimits => {
  const maxOnWire = maxPoolSize > 0 ? maxPoolSize : Infinity
  return {
    maxDocuments: 256,
    maxInFlight: 1,
    maxWaitMs: deadlineMs / 100,
    maxOnWire,
    maxDeadlineSpreadMs: deadlineMs / 100,
  }
}

/** The limits with the driver's default pool (100 connections) and the default deadline. */
export const DEFAULT_INSERT_BATCH_LIMITS: InsertBatchLimits = insertBatchLimitsFor(100, DEFAULT_MONGO_TIMEOUTS.operationMs)

interface Waiting {
  readonly document: PlantDocument
  readonly bound: CallBound
  /** When it began to wait (`performance.now()`). */
  readonly since: number
  readonly resolve: (result: InsertResult) => void
  readonly reject: (error: unknown) => void
}

/**
 * Batches of unordered inserts into `plants`. A batch carries the signal of the member whose
 * deadline comes first, so no member is answered "deadline passed" while the batch can still be
 * sent (or retried) for it: nothing is sent for a write after its 503. What was already on its
 * way may still be applied (mongod does not stop an insert whose client has gone), so a 503 never
 * says the plant was not stored, and the same create sent again is a replay. A member whose
 * deadline passes while it waits is not sent at all. A batch gives up its place on the wire at its
 * deadline, whatever the driver is still doing for it (see untilDeadline).
 *
 * The members of a batch have deadlines at most `maxDeadlineSpreadMs` apart, so no create is
 * answered 503 for another's deadline by more than that, but for the batch that takes the last
 * place on the wire, which takes every create waiting: its members have waited since an insert
 * last came back, and the longest-waiting of them sets the deadline. A batch cannot carry each member's own
 * deadline instead: the driver may still be waiting for a connection, or about to retry, when a
 * member's deadline passes, and would then send that member's plant after its 503; nothing tells
 * when the command has been written for the last time.
 */
export const makeInsertBatches = (
  plants: Collection<PlantDocument>,
  { maxDocuments, maxInFlight, maxWaitMs, maxOnWire, maxDeadlineSpreadMs }: InsertBatchLimits = DEFAULT_INSERT_BATCH_LIMITS,
  writeConcernWithin: WriteConcernWithin = () => undefined,
): InsertBatches => {
  let waiting: Waiting[] = []
  let inFlight = 0
  let scheduled = false
  let waitEnds: NodeJS.Timeout | undefined

  // Sent once the calls made together have joined (the current run of microtasks), and at once
  // while fewer than maxInFlight batches are on the wire: a create never waits for company, nor
  // for a turn of the event loop.
  const schedule = (): void => {
    if (scheduled) return
    scheduled = true
    queueMicrotask(() => {
      scheduled = false
      sendWhatWaits()
    })
  }

  // From maxInFlight on, what waits goes when an insert ends or when the longest-waiting create
  // has waited maxWaitMs, whichever comes first, and never beyond maxOnWire.
  const sendWhatWaits = (): void => {
    let now: number | undefined
    while (waiting.length > 0 && inFlight < maxOnWire) {
      if (inFlight >= maxInFlight) {
        now ??= performance.now()
        if (now < (waiting[0] as Waiting).since + maxWaitMs) break
      }
      const members = takeNext(inFlight + 1 >= maxOnWire ? Infinity : maxDeadlineSpreadMs)
      if (members.length === 0) continue
      inFlight += 1
      // send settles every member itself and never rejects.
      void send(plants, members, writeConcernWithin).then(() => {
        inFlight -= 1
        if (waiting.length > 0) schedule()
      })
    }
    const [first] = waiting
    if (first !== undefined && inFlight < maxOnWire) endWaitAt(first.since + maxWaitMs)
  }

  // One timer for the longest-waiting create; when it is for an earlier one already sent, it
  // finds the next one not due yet and is set again.
  const endWaitAt = (due: number): void => {
    if (waitEnds !== undefined) return
    waitEnds = setTimeout(
      () => {
        waitEnds = undefined
        // After the turn's I/O: a reply read in this turn frees a place on the wire for what
        // waits, where an insert of its own would cost one more connection.
        setImmediate(sendWhatWaits)
      },
      Math.max(0, due - performance.now()),
    )
  }

  // The longest-waiting members, up to `maxDocuments`, whose deadlines lie within `spreadMs` of
  // one another; those whose deadline has passed are let go (their call has already answered).
  // The first member that would widen the spread too far begins the next batch: creates wait in
  // the order they came, which is (but for the moment a connect took) the order of their deadlines.
  const takeNext = (spreadMs: number): Waiting[] => {
    const members: Waiting[] = []
    let earliest = Infinity
    let latest = -Infinity
    let taken = 0
    for (; taken < waiting.length && members.length < maxDocuments; taken += 1) {
      const member = waiting[taken] as Waiting
      if (member.bound.signal.aborted) {
        member.reject(member.bound.signal.reason)
        continue
      }
      const { deadline } = member.bound
      if (Math.max(latest, deadline) - Math.min(earliest, deadline) > spreadMs) break
      earliest = Math.min(earliest, deadline)
      latest = Math.max(latest, deadline)
      members.push(member)
    }
    waiting = taken === waiting.length ? [] : waiting.slice(taken)
    return members
  }

  return {
    insert: (document, bound) =>
      new Promise<InsertResult>((resolve, reject) => {
        const since = performance.now()
        waiting.push({ document, bound, since, resolve, reject })
        if (inFlight < maxInFlight) schedule()
        else if (inFlight < maxOnWire) endWaitAt(since + maxWaitMs)
      }),
  }
}

// A document the driver would refuse to put in a bulk goes alone, as a plain insertOne: there
// mongod judges it, and its refusal is that create's own, not its batch-mates'.
const send = async (plants: Collection<PlantDocument>, members: ReadonlyArray<Waiting>, concern: WriteConcernWithin): Promise<void> => {
  const alone = members.filter(({ document }) => mayExceedBulkLimit(document))
  const together = alone.length === 0 ? members : members.filter((member) => !alone.includes(member))
  const [only] = together
  await Promise.all([
    ...alone.map((member) => sendAlone(plants, member, concern)),
    together.length === 1 && only !== undefined
      ? sendAlone(plants, only, concern)
      : together.length > 1
        ? sendTogether(plants, together, concern)
        : undefined,
  ])
}

// The write concern for an insert sent under `bound`, only where one is set: the driver takes an
// operation's write concern whole, in place of the collection's.
const writeConcernUnder = (bound: CallBound, concern: WriteConcernWithin): { readonly writeConcern?: WriteConcern } => {
  const writeConcern = concern(bound.deadline - performance.now())
  return writeConcern === undefined ? {} : { writeConcern }
}

const sendTogether = async (plants: Collection<PlantDocument>, members: ReadonlyArray<Waiting>, concern: WriteConcernWithin): Promise<void> => {
  const { bound } = earliestDeadline(members)
  const { signal } = bound
  const options: BulkWriteOptions & Abortable = { ordered: false, signal, ...writeConcernUnder(bound, concern) }
  try {
    await untilDeadline(
      plants.insertMany(
        members.map(({ document }) => document),
        options,
      ),
      signal,
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
const sendAlone = async (
  plants: Collection<PlantDocument>,
  { document, bound, resolve, reject }: Waiting,
  concern: WriteConcernWithin,
): Promise<void> => {
  try {
    // The driver reads the signal for every operation (server selection, connection checkout),
    // though its types declare it on reads only.
    const options: InsertOneOptions & Abortable = { signal: bound.signal, ...writeConcernUnder(bound, concern) }
    await untilDeadline(plants.insertOne(document, options), bound.signal)
    resolve('inserted')
  } catch (error) {
    if (error instanceof MongoServerError && isIdTaken(error, error.errorResponse.keyPattern, error.errorResponse.keyValue)) resolve('idTaken')
    else reject(error)
  }
}

/**
 * Settles as `work` does, or with the signal's reason once it aborts, whichever comes first. The
 * driver (7.9) does not end everything an operation does when its signal aborts: the back-off
 * before retrying an overloaded server sleeps without it, and server selection and connection
 * checkout only listen for an abort to come, not for one that has come. It sends nothing after
 * the abort (it checks the signal before writing), but its promise can stay pending for seconds,
 * and with it the batch's place on the wire. The late settlement is ignored: the members have
 * their answers, and a 503 says nothing of whether what was sent before it was applied.
 */
const untilDeadline = <A>(work: Promise<A>, signal: AbortSignal): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const abandon = (): void => reject(signal.reason)
    if (signal.aborted) abandon()
    else signal.addEventListener('abort', abandon, { once: true })
    work.then(
      (value) => {
        signal.removeEventListener('abort', abandon)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abandon)
        reject(error)
      },
    )
  })

/**
 * The largest document every mongod announces (`maxBsonObjectSize`, 16 MiB since 1.8). The driver
 * refuses a bulk holding a document of this size or more before sending any of it, failing every
 * create of the batch; mongod itself stores a document of exactly this size and refuses a larger
 * one as that document's own write error.
 */
const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024

// A UTF-16 code unit takes at most 3 bytes in UTF-8; the fields' names, the int64 id and the
// lengths take well under 64. Only a document near the limit is measured.
const mayExceedBulkLimit = ({ name, tag }: PlantDocument): boolean =>
  (name.length + (tag?.length ?? 0)) * 3 + 64 >= MAX_BSON_OBJECT_SIZE &&
  BSON.calculateObjectSize({ _id: 0n, name, ...(tag === undefined ? {} : { tag }) }) >= MAX_BSON_OBJECT_SIZE

// A failure the reading of outcomes did not foresee fails every member, rather than none, with an
// error that carries nothing of the other members' plants.
const outcomesOrAll = (error: unknown): ((index: number) => InsertResult | Error) => {
  try {
    return outcomesOf(error)
  } catch {
    const failed = error instanceof MongoBulkWriteError ? asLoneError(error) : asError(error)
    return () => failed
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
  // Not a reply at all (the deadline, a bulk the driver refused to build): every member met it,
  // as each would alone.
  if (!(error instanceof MongoBulkWriteError)) return () => asError(error)
  // An error the command met as a whole (the network, a server selection, the deadline), which
  // the driver wraps with the result of the whole bulk.
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
  if (writeErrors.length === 0) {
    const failed = asLoneError(error)
    return () => failed
  }
  const byIndex = new Map(writeErrors.map((writeError) => [writeError.index, writeError] as const))
  return (index) => {
    const writeError = byIndex.get(index)
    if (writeError === undefined) return 'inserted'
    // The driver keeps only the code and the message of a write error in a bulk's result.
    if (isIdTaken({ code: writeError.code, message: writeError.errmsg ?? '' }, undefined, undefined)) return 'idTaken'
    // Without the document (`op`): an error must not carry a plant into the logs.
    const { code, errmsg = '', errInfo } = writeError
    return new MongoServerError(errInfo === undefined ? { code, errmsg } : { code, errmsg, errInfo })
  }
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)))

/**
 * A server error the command met as a whole (answered `ok: 0`: an interruption, an overloaded or
 * stepping-down node), as a lone insertOne throws it: built from the same reply, with the same
 * labels. The driver threw it for the whole bulk and wrapped it with the bulk's result, which
 * names every member's plant id; each member gets this instead, so that no member's error, nor
 * the log line of its request, carries another request's plant.
 */
const asLoneError = (bulk: MongoBulkWriteError): MongoServerError => {
  const reply: unknown = bulk.errorResponse
  const lone = new MongoServerError(
    typeof reply === 'object' && reply !== null ? (reply as MongoServerError['errorResponse']) : { errmsg: bulk.message, code: bulk.code },
  )
  for (const label of bulk.errorLabels) lone.addErrorLabel(label)
  return lone
}

/**
 * Whether a duplicate key error says the document's `_id` is taken, on every kind of collection:
 * mongod names the key pattern and the key's value (a lone insert's error keeps both; a bulk's
 * result keeps neither), and its message gives the key as `dup key: { _id: … }`, after the index
 * name on a collection with an `_id` index and with no index name on a clustered collection.
 * A key pattern that begins with `_id` is taken for the id: no two documents have one `_id`.
 */
const isIdTaken = (error: { readonly code?: unknown; readonly message: string }, keyPattern: unknown, keyValue: unknown): boolean => {
  if (error.code !== 11000) return false
  if (isDocument(keyPattern)) return firstKeyIsId(keyPattern)
  if (isDocument(keyValue)) return firstKeyIsId(keyValue)
  return messageNamesId(error.message)
}

const isDocument = (value: unknown): value is object => typeof value === 'object' && value !== null

const firstKeyIsId = (document: object): boolean => Object.keys(document)[0] === '_id'

// "E11000 duplicate key error collection: db.plants index: _id_ dup key: { _id: 5 }", or on a
// clustered collection "E11000 duplicate key error collection: db.plants dup key: { _id: 5 }";
// what follows the key (a found value) is not read. Servers before 4.2 left the key's field names
// out (`dup key: { : 5 }`) but named the index.
const messageNamesId = (message: string): boolean => {
  const key = message.indexOf(DUP_KEY)
  if (!message.startsWith('E11000 ') || key < 0) return false
  return message.startsWith('{ _id: ', key + DUP_KEY.length) || / index: _id_$/.test(message.slice(0, key))
}

const DUP_KEY = ' dup key: '
