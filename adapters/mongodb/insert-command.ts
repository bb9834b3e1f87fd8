import type { Abortable, BulkWriteOptions, Collection, InsertOneOptions, WriteConcernSettings } from 'mongodb'
import type { InsertResult, SendInsert } from './insert-batches.js'
import type { PlantDocument } from './plant-document.js'
import { BSON, MongoBulkWriteError, MongoServerError, MongoWriteConcernError } from './peers.js'

/**
 * The write concern an insert is sent with, given the time its life has left; undefined leaves
 * the collection's own.
 */
export type WriteConcernWithin = (msLeft: number) => WriteConcernSettings | undefined

/**
 * The driver's side of an insert (see insert-batches.ts for which creates share one): an insert of
 * one document is a plain `insertOne`, as the bulk write API costs the driver more per call, which
 * a lone create would pay for nothing; more go as one unordered `insertMany`, and each document
 * gets the outcome a lone `insertOne` of it would have had. A document the driver would refuse to
 * put in a bulk goes alone, so that mongod judges it and its refusal is its own.
 */
export const sendInsertInto =
  (plants: Collection<PlantDocument>, concern: WriteConcernWithin): SendInsert =>
  (documents, signal, msLeft) => {
    const writeConcern = concern(msLeft)
    const options = writeConcern === undefined ? { signal } : { signal, writeConcern }
    if (documents.length === 1) return insertOne(plants, documents[0] as PlantDocument, options)
    const alone = documents.filter(mayExceedBulkLimit)
    if (alone.length === 0) return insertMany(plants, documents, options)
    const together = documents.filter((document) => !alone.includes(document))
    return Promise.all([
      Promise.all(alone.map((document) => insertOne(plants, document, options))),
      together.length === 0 ? [] : together.length === 1 ? insertOne(plants, together[0] as PlantDocument, options) : insertMany(plants, together, options),
    ]).then(([lone, shared]) => {
      const byDocument = new Map<PlantDocument, InsertResult | Error>()
      alone.forEach((document, index) => byDocument.set(document, (lone[index] as ReadonlyArray<InsertResult | Error>)[0] as InsertResult | Error))
      together.forEach((document, index) => byDocument.set(document, shared[index] as InsertResult | Error))
      return documents.map((document) => byDocument.get(document) as InsertResult | Error)
    })
  }

type InsertOptions = { readonly signal: AbortSignal; readonly writeConcern?: WriteConcernSettings }

const INSERTED: ReadonlyArray<InsertResult> = ['inserted']

// The driver reads the signal for every operation (server selection, connection checkout),
// though its types declare it on reads only.
const insertOne = (plants: Collection<PlantDocument>, document: PlantDocument, options: InsertOptions): Promise<ReadonlyArray<InsertResult | Error>> =>
  plants.insertOne(document, options as InsertOneOptions & Abortable).then(
    () => INSERTED,
    (error: unknown) => [
      error instanceof MongoServerError && isIdTaken(error, error.errorResponse.keyPattern, error.errorResponse.keyValue) ? 'idTaken' : asError(error),
    ],
  )

const insertMany = (
  plants: Collection<PlantDocument>,
  documents: ReadonlyArray<PlantDocument>,
  options: InsertOptions,
): Promise<ReadonlyArray<InsertResult | Error>> =>
  plants.insertMany(documents as PlantDocument[], { ordered: false, ...options } as BulkWriteOptions & Abortable).then(
    () => documents.map((): InsertResult => 'inserted'),
    (error: unknown) => {
      const outcomes = outcomesOrAll(error)
      return documents.map((_, index) => outcomes(index))
    },
  )

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
