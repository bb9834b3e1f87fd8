// The commands the peer answers, each after the reply shape of mongod 8.0 as its manual
// documents it ("Database Commands" reference: hello, ping, insert, find, createIndexes,
// endSessions, killCursors, drop, dropDatabase, buildInfo), and the error shapes of its
// "Error Codes" page.
import { calculateObjectSize, Long, ObjectId, Timestamp, type Document } from 'bson'
import type { Collection, PeerData, RetryRecord, RetryRecords, StoredDocument } from './data.js'
import { commandError, labelledCommandError, labelsFor } from './errors.js'
import { compareTimestamps, wireOpTime, type OpTime, type Replication } from './replication.js'
import type { PeerTopology } from './topology.js'
import { keyOf, numberOf, showValue } from './values.js'

/** How clients learn of the peer's state: by streaming `hello` (mongod 4.4+), or by asking it again and again. */
export type PeerMonitoring = 'streaming' | 'polling'

/** A write error an insert answers for each document `refuses` picks; the others are written. */
export interface DocumentRefusal {
  readonly code: number
  readonly errmsg: string
  readonly refuses: (document: Document) => boolean
}

/** An insert stopped part-way: the documents from `afterDocuments` on are not applied, and the command fails with this error. */
export interface Interruption {
  readonly afterDocuments: number
  readonly code: number
  readonly codeName: string
  readonly errmsg: string
}

/**
 * How the peer's collections keep `_id` unique: an `_id` index (every collection by default), or
 * the collection's own clustered key (a clustered collection, MongoDB 5.3+), whose duplicate key
 * error names no index.
 */
export type IdUniqueness = 'idIndex' | 'clustered'

/**
 * What the peer plays: a replica set's member (mongod), or a router in front of a sharded cluster
 * (mongos), directly or behind a load balancer. A router has no replica set of its own: it says
 * so in `hello` (`msg: "isdbgrid"`), and behind a load balancer it answers a client that asks for
 * that mode with a `serviceId`, as mongos 5.0+ does.
 */
export type PeerRole = 'member' | 'mongos' | 'mongosBehindLoadBalancer'

/** What a command may know of the peer and of the connection it came on. */
export interface CommandContext {
  readonly role: PeerRole
  readonly data: PeerData
  readonly retries: RetryRecords
  /** The oplog and its majority commit point. */
  readonly replication: Replication
  /** `host:port` as clients address the peer; the one member of its replica set. */
  readonly address: string
  readonly setName: string
  readonly connectionId: number
  /** How long a new write waits before a majority of the replica set has it (0: at once). */
  readonly replicationLagMs: number
  /** Documents an insert refuses one by one, as a collection's validator does (none when absent). */
  readonly refusal?: DocumentRefusal
  /** Where an insert is interrupted (nowhere when absent). */
  readonly interruption?: Interruption
  readonly idUniqueness: IdUniqueness
  /** Aborted when the peer stops, so no reply waits past it. */
  readonly stopping: AbortSignal
  /** Primary or secondary, the election term, the topologyVersion. */
  readonly topology: PeerTopology
  readonly monitoring: PeerMonitoring
}

type Handler = (command: Document, context: CommandContext) => Document | Promise<Document>

/** The name of a command: the first key of its document, as mongod reads it. */
export const commandNameOf = (command: Document): string => Object.keys(command)[0] ?? ''

/**
 * Runs a command and answers its reply document; an unknown command gets mongod's error, and so
 * does a write, or a read that must be served by the primary, while the peer is a secondary.
 */
export const runCommand = async (command: Document, context: CommandContext): Promise<Document> => {
  const name = commandNameOf(command)
  const handler = HANDLERS[name] ?? HANDLERS[name.toLowerCase()]
  if (handler === undefined) return commandError(59, 'CommandNotFound', `no such command: '${name}'`)
  if (context.topology.state() === 'secondary') {
    if (WRITES.has(name)) return labelledCommandError(10107, 'NotWritablePrimary', 'not primary', command, false)
    if (name === 'find' && !allowsSecondary(command)) {
      return commandError(13435, 'NotPrimaryNoSecondaryOk', 'not primary and secondaryOk=false')
    }
  }
  return handler(command, context)
}

const WRITES = new Set(['insert', 'createIndexes', 'drop', 'dropDatabase'])

const allowsSecondary = (command: Document): boolean => {
  const mode = ((command.$readPreference ?? {}) as Document).mode
  return mode !== undefined && mode !== 'primary'
}

// The "Maximum Wire Version" of MongoDB 8.0 is 25; driver 7 accepts 9 (4.4) to 29.
const MAX_WIRE_VERSION = 25

/** mongod's `maxBsonObjectSize`: the largest document it stores (BSONObjMaxUserSize). */
export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024

/**
 * The largest BSON object mongod reads at all (BSONObjMaxInternalSize): a command's body may
 * exceed a document's limit by this much, for the command's own fields.
 */
export const MAX_INTERNAL_BSON_OBJECT_SIZE = MAX_BSON_OBJECT_SIZE + 16 * 1024

/** mongod's `maxMessageSizeBytes`: a longer message closes the connection. */
export const MAX_MESSAGE_SIZE_BYTES = 48_000_000

/** mongod's `maxWriteBatchSize`: an insert of more documents is refused whole. */
export const MAX_WRITE_BATCH_SIZE = 100_000

// hello on a replica-set member. A primary names itself and carries its electionId (0x7fffffff,
// then the term, as mongod writes it); a secondary of this one-member set knows no primary. A
// peer that goes away and comes back keeps its term, so it is not taken for a stale primary
// unless a test makes the term go back (a replica set initiated anew). topologyVersion, which
// makes the driver stream `hello` rather than poll, is there when the peer streams.
const hello =
  (legacy: boolean): Handler =>
  (command, context) => {
    const { topology, address, setName, connectionId, monitoring } = context
    if (context.role !== 'member') return routerHello(legacy, command, context)
    const primary = topology.state() === 'primary'
    return {
      ...(legacy ? { ismaster: primary } : { isWritablePrimary: primary }),
      ...(command.helloOk === true ? { helloOk: true } : {}),
      ...(monitoring === 'streaming' ? { topologyVersion: topology.topologyVersion() } : {}),
      hosts: [address],
      setName,
      setVersion: 1,
      secondary: !primary,
      ...(primary ? { primary: address, electionId: electionIdOf(topology.electionTerm()) } : {}),
      me: address,
      lastWrite: lastWriteOf(context.replication),
      ...helloLimits(connectionId),
    }
  }

// hello on mongos: writable, no replica set, `msg: "isdbgrid"` (how drivers tell a router). Behind
// a load balancer, a client that asks for that mode is given the id of the mongos it reached.
const routerHello = (legacy: boolean, command: Document, { topology, connectionId, monitoring, role }: CommandContext): Document => ({
  ...(legacy ? { ismaster: true } : { isWritablePrimary: true }),
  msg: 'isdbgrid',
  ...(command.helloOk === true ? { helloOk: true } : {}),
  ...(monitoring === 'streaming' && role === 'mongos' ? { topologyVersion: topology.topologyVersion() } : {}),
  ...(role === 'mongosBehindLoadBalancer' && command.loadBalanced === true ? { serviceId: topology.topologyVersion().processId } : {}),
  ...helloLimits(connectionId),
})

// What every hello says of the server whatever its role: its limits, its clock, its wire versions.
const helloLimits = (connectionId: number): Document => ({
  maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
  maxMessageSizeBytes: MAX_MESSAGE_SIZE_BYTES,
  maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
  localTime: new Date(),
  logicalSessionTimeoutMinutes: 30,
  connectionId,
  minWireVersion: 0,
  maxWireVersion: MAX_WIRE_VERSION,
  readOnly: false,
  ok: 1,
})

// A member's last write and the last a majority has, as mongod's hello tells them (lastWrite).
const lastWriteOf = (replication: Replication): Document => {
  const [applied, committed] = [replication.lastApplied(), replication.committed()]
  return { opTime: wireOpTime(applied), lastWriteDate: applied.wallTime, majorityOpTime: wireOpTime(committed), majorityWriteDate: committed.wallTime }
}

const electionIdOf = (term: number): ObjectId => new ObjectId(`7fffffff${term.toString(16).padStart(16, '0')}`)

/** Whether `hello` asks to be answered only when the topology changes, as a streaming monitor asks. */
export const isAwaitableHello = (command: Document): boolean =>
  (commandNameOf(command) === 'hello' || commandNameOf(command).toLowerCase() === 'ismaster') &&
  command.topologyVersion !== undefined &&
  command.maxAwaitTimeMS !== undefined

const namespaceOf = (command: Document): string => `${String(command.$db)}.${String(command[commandNameOf(command)])}`

// insert: `{n, ok: 1}`, plus `writeErrors` (one per failed document: index, code, errmsg, and
// for a duplicate key `keyPattern` and `keyValue`). A document larger than maxBsonObjectSize is
// its own write error (BadValue, "object to insert too large", from mongod's
// fixDocumentForInsert); one of exactly that size is stored. With `ordered` (the default) the
// first error ends the batch. An interrupted insert keeps the documents applied before the
// interruption and fails as a whole, without waiting for its write concern. A retried statement (same lsid and txnNumber) is not run again: it counts as
// done, as mongod answers a retryable write from its record. Either way the reply waits for the
// write concern, as mongod waits for the client's last optime: that of the last document written,
// or, when the command wrote nothing (every document a duplicate key or a retried statement), the
// system's last optime (mongod's LastOpFixer), which covers the write that holds the id or made
// the first attempt. A member's reply names that optime and its election (`opTime`,
// `electionId`), as mongod's write commands do for mongos.
const insert: Handler = async (command, context) => {
  const namespace = namespaceOf(command)
  const record = retryRecordOf(command, context)
  if (record === 'TooOld') {
    return commandError(225, 'TransactionTooOld', 'a newer retryable write has already started on this session')
  }
  const documents = Array.isArray(command.documents) ? (command.documents as Document[]) : []
  // mongod's write_ops parser: the batch is refused before any of it is applied.
  if (documents.length < 1 || documents.length > MAX_WRITE_BATCH_SIZE) {
    return commandError(16, 'InvalidLength', `Write batch sizes must be between 1 and ${MAX_WRITE_BATCH_SIZE}. Got ${documents.length} operations.`)
  }
  const collection = context.data.findOrCreate(namespace)
  const ordered = command.ordered !== false
  const writeErrors: Document[] = []
  let lastOp: OpTime | undefined
  let n = 0
  for (const [index, document] of documents.entries()) {
    const interruption = context.interruption
    if (interruption !== undefined && index >= interruption.afterDocuments) {
      return labelledCommandError(interruption.code, interruption.codeName, interruption.errmsg, command, lastOp !== undefined)
    }
    if (record?.executed.has(index) === true) {
      n += 1
      continue
    }
    const fields = '_id' in document ? document : { _id: new ObjectId(), ...document }
    const size = calculateObjectSize(fields)
    if (size > MAX_BSON_OBJECT_SIZE) {
      writeErrors.push({ index, code: 2, errmsg: `object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_OBJECT_SIZE}` })
      if (ordered) break
      continue
    }
    // mongod validates a document before its keys reach an index: a refused one takes no id.
    if (context.refusal?.refuses(fields) === true) {
      const { code, errmsg } = context.refusal
      writeErrors.push({ index, code, errmsg, errInfo: { failingDocumentId: fields._id } })
      if (ordered) break
      continue
    }
    const key = keyOf(fields._id)
    if (collection.has(key)) {
      writeErrors.push(duplicateKeyError(index, namespace, fields._id, context.idUniqueness))
      if (ordered) break
      continue
    }
    lastOp = context.replication.apply(context.replicationLagMs, context.topology.electionTerm())
    collection.set(key, { fields, op: lastOp.index })
    record?.executed.add(index)
    n += 1
  }
  const clientOp = lastOp ?? context.replication.lastApplied()
  const reply = {
    n,
    ...(writeErrors.length > 0 ? { writeErrors } : {}),
    ...(context.role === 'member' ? { opTime: wireOpTime(clientOp), electionId: electionIdOf(context.topology.electionTerm()) } : {}),
    ok: 1,
    operationTime: clientOp.ts,
  }
  return awaitWriteConcern(command, clientOp, reply, context)
}

const retryRecordOf = (command: Document, context: CommandContext): RetryRecord | 'TooOld' | undefined => {
  const lsid = command.lsid as Document | undefined
  const txnNumber = command.txnNumber
  if (lsid === undefined || txnNumber === undefined) return undefined
  return context.retries.recordFor(lsid.id, BigInt(numberOf(txnNumber) ?? 0))
}

// mongod's buildDupKeyErrorStatus: the index is named unless the key is a clustered
// collection's own, which has no index; the key pattern is `{_id: 1}` either way.
const duplicateKeyError = (index: number, namespace: string, id: unknown, uniqueness: IdUniqueness): Document => ({
  index,
  code: 11000,
  errmsg: `E11000 duplicate key error collection: ${namespace}${uniqueness === 'idIndex' ? ' index: _id_' : ''} dup key: { _id: ${showValue(id)} }`,
  keyPattern: { _id: 1 },
  keyValue: { _id: id },
})

// Write concern: `w: "majority"` (mongod's implicit default on a replica set since 5.0) waits
// until the majority commit point reaches the client's last optime; `wtimeout` bounds that wait,
// and when it runs out the reply gains a writeConcernError (code 64, WriteConcernTimeout,
// errInfo.wtimeout), the writes staying. A step-down fails every pending wait, and one begun on a
// member that is no longer primary, with PrimarySteppedDown (189), as mongod's replication
// coordinator does (its waiters set in error as the member state leaves primary): the writes
// stay, and the error is labelled for a retryable write's retry. The peer's replica
// set has one member: a number above 1 cannot be satisfied (100), and a mode by name is one its
// configuration does not define (79); mongod answers both after applying the writes.
const awaitWriteConcern = async (command: Document, clientOp: OpTime, reply: Document, context: CommandContext): Promise<Document> => {
  const concern = (command.writeConcern ?? {}) as Document
  const w: unknown = concern.w === undefined ? 'majority' : concern.w
  if (typeof w === 'string' && w !== 'majority') {
    return { ...reply, writeConcernError: { code: 79, codeName: 'UnknownReplWriteConcern', errmsg: `No write concern mode named '${w}' found in replica set configuration` } }
  }
  if (typeof w !== 'string' && (numberOf(w) ?? 1) > 1) {
    return { ...reply, writeConcernError: { code: 100, codeName: 'UnsatisfiableWriteConcern', errmsg: 'Not enough data-bearing nodes' } }
  }
  if (w !== 'majority') return reply
  const wtimeout = numberOf(concern.wtimeout) ?? 0
  const until = wtimeout > 0 ? performance.now() + wtimeout : Infinity
  const { replication, topology, stopping } = context
  for (;;) {
    if (topology.state() !== 'primary') {
      return { ...reply, writeConcernError: PRIMARY_STEPPED_DOWN, ...labelsFor(PRIMARY_STEPPED_DOWN.code, command, true) }
    }
    if (replication.isCommitted(clientOp.index)) return reply
    const left = until - performance.now()
    if (left <= 0) return { ...reply, writeConcernError: writeConcernTimeout(concern) }
    if (stopping.aborted) throw stopping.reason
    // Woken by the commit point moving or the member's state changing, whichever comes first.
    const either = new AbortController()
    const woken = AbortSignal.any([either.signal, stopping])
    const wait = Math.min(left, 2_147_483_647)
    await Promise.race([replication.nextCommit(wait, woken), topology.changeFrom(topology.topologyVersion(), wait, woken)])
    either.abort()
  }
}

const PRIMARY_STEPPED_DOWN = { code: 189, codeName: 'PrimarySteppedDown', errmsg: 'Primary stepped down while waiting for replication' }

const writeConcernTimeout = (concern: Document): Document => ({
  code: 64,
  codeName: 'WriteConcernTimeout',
  errmsg: 'waiting for replication timed out',
  errInfo: { wtimeout: true, writeConcern: { ...concern, provenance: 'clientSupplied' } },
})

// find: `{cursor: {firstBatch, id, ns}, ok: 1}`. Read concern "majority" reads at the majority
// commit point: only documents a majority has; "local" (the default) sees every one. With
// `afterClusterTime` (a causally consistent session's), the read first waits for the point it
// reads at to reach that time, as mongod's waitUntilOpTimeForRead does, within maxTimeMS; a time
// after the node's own cluster time is refused. `operationTime` is the time read at. The whole result comes in the first
// batch with cursor id 0, so no getMore follows. Filters: equality on top-level fields;
// documents come in the order they were inserted.
const find: Handler = async (command, context) => {
  const namespace = namespaceOf(command)
  const filter = (command.filter ?? {}) as Document
  const operator = Object.keys(filter).find((key) => key.startsWith('$'))
  if (operator !== undefined) return commandError(2, 'BadValue', `mongo-peer does not evaluate ${operator}`)
  // Better refused than ignored: a client that asked for an order must not get another one.
  if (command.sort !== undefined) return commandError(2, 'BadValue', 'mongo-peer does not sort')
  const readConcern = (command.readConcern ?? {}) as Document
  const majority = readConcern.level === 'majority'
  const { replication } = context
  const readAt = (): OpTime => (majority ? replication.committed() : replication.lastApplied())
  const after = readConcern.afterClusterTime
  if (after instanceof Timestamp) {
    if (compareTimestamps(after, replication.lastApplied().ts) > 0) {
      return commandError(72, 'InvalidOptions', 'readConcern afterClusterTime value must not be greater than the current clusterTime')
    }
    const until = performance.now() + (numberOf(command.maxTimeMS) || Infinity)
    while (compareTimestamps(readAt().ts, after) < 0) {
      const left = until - performance.now()
      if (left <= 0) return commandError(50, 'MaxTimeMSExpired', 'operation exceeded time limit')
      if (context.stopping.aborted) throw context.stopping.reason
      await replication.nextCommit(Math.min(left, 2_147_483_647), context.stopping)
    }
  }
  const point = readAt()
  const visible = candidatesFor(filter, context.data.find(namespace)).filter((stored) => !majority || stored.op <= point.index)
  const matching = visible
    .map((stored) => stored.fields)
    .filter((fields) => Object.entries(filter).every(([field, value]) => field in fields && keyOf(fields[field]) === keyOf(value)))
  const limit = Math.abs(numberOf(command.limit) ?? 0)
  const firstBatch = limit > 0 ? matching.slice(0, limit) : matching
  return { cursor: { firstBatch, id: Long.ZERO, ns: namespace }, ok: 1, operationTime: point.ts }
}

// A filter on `_id` reads the one document under that key, as mongod's _id index does; any
// other filter scans the collection.
const candidatesFor = (filter: Document, collection: Collection | undefined): StoredDocument[] => {
  if (collection === undefined) return []
  if (!('_id' in filter)) return [...collection.values()]
  const stored = collection.get(keyOf(filter._id))
  return stored === undefined ? [] : [stored]
}

// createIndexes: the peer keeps only the `_id` index, which every collection has; asking for it
// again is answered as mongod answers an index that exists, any other index is refused rather
// than accepted and not enforced.
const createIndexes: Handler = (command, context) => {
  const indexes = Array.isArray(command.indexes) ? (command.indexes as Document[]) : []
  const onlyId = indexes.every((index) => Object.keys((index.key ?? {}) as Document).join() === '_id')
  if (!onlyId) return commandError(67, 'CannotCreateIndex', 'mongo-peer keeps only the _id index')
  const created = context.data.find(namespaceOf(command)) === undefined
  context.data.findOrCreate(namespaceOf(command))
  return { numIndexesBefore: 1, numIndexesAfter: 1, note: 'all indexes already exist', createdCollectionAutomatically: created, ok: 1 }
}

// Authentication: the peer holds no users, so it refuses every credential as mongod refuses one
// it does not know (SCRAM's first step answered AuthenticationFailed, 18); the driver's
// speculative authentication in the handshake `hello` is left unanswered, as for a failed one.
const refuseCredential: Handler = () => commandError(18, 'AuthenticationFailed', 'Authentication failed.')

const HANDLERS: Readonly<Record<string, Handler>> = {
  saslStart: refuseCredential,
  authenticate: refuseCredential,
  hello: hello(false),
  ismaster: hello(true),
  ping: () => ({ ok: 1 }),
  buildInfo: () => ({ version: '8.0.0', versionArray: [8, 0, 0, 0], maxBsonObjectSize: 16 * 1024 * 1024, ok: 1 }),
  insert,
  find,
  createIndexes,
  endSessions: () => ({ ok: 1 }),
  killCursors: (command) => ({ cursorsKilled: command.cursors ?? [], cursorsNotFound: [], cursorsAlive: [], cursorsUnknown: [], ok: 1 }),
  drop: (command, context) =>
    context.data.drop(namespaceOf(command))
      ? { ns: namespaceOf(command), nIndexesWas: 1, ok: 1 }
      : commandError(26, 'NamespaceNotFound', 'ns not found'),
  dropDatabase: (command, context) => {
    context.data.dropDatabase(String(command.$db))
    return { dropped: command.$db, ok: 1 }
  },
}
