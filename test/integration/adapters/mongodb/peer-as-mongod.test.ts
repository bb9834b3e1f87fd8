import { expect } from 'chai'
import { ObjectId, serialize, Timestamp } from 'bson'
import { once } from 'node:events'
import { connect } from 'node:net'
import { MongoBulkWriteError, MongoClient, MongoServerError, MongoWriteConcernError, type ServerDescriptionChangedEvent } from 'mongodb'
import { MAX_BSON_OBJECT_SIZE, MAX_INTERNAL_BSON_OBJECT_SIZE, MAX_WRITE_BATCH_SIZE } from '../../../support/mongo-peer/commands.js'
import { codesInCategories, serverErrorCode } from '../../../support/mongo-peer/error-codes.js'
import { crc32c } from '../../../support/mongo-peer/wire.js'
import { interruptedInsert, overloaded, serverError, writeConcernTimedOut } from '../../../support/mongo-peer/faults.js'
import { PEER_MONITORING_MODES, startMongoPeer, type MongoPeer } from '../../../support/mongo-peer/server.js'
import { withRawClient } from '../../../support/mongodb/support.js'
import { yardstickMs } from '../../../support/yardstick.js'

// The wire peer stands in for mongod in the adapter's fault tests: where the adapter depends on
// what mongod does, the peer must do it too, or a test passes that a real server would fail.
describe('the wire peer behaves as mongod', function () {
  let peer: MongoPeer
  // A test's time is a hang detector, not a bound on speed: the suite's 60 s, or more where the
  // machine needs it. The longest test opens a client per error code, some 45 of them, each a
  // connection, a handshake and an insert: the yardstick is the slowest of three such rounds now,
  // and a test gets 200 of them (four times its need). The 16 MiB documents are CPU work that a
  // busy machine stretches past 10 s.
  let testMs = 60_000
  before(async function () {
    const sized = await startMongoPeer()
    try {
      testMs = Math.max(60_000, 200 * (await yardstickMs(3, 0, () => withRawClient(sized.uri, (client) => client.db('yardstick').collection('rounds').insertOne({})))))
    } finally {
      await sized.stop()
    }
  })
  beforeEach(async function () {
    this.currentTest?.timeout(testMs)
    peer = await startMongoPeer()
  })
  afterEach(async function () {
    await peer.stop()
  })

  const LAG_MS = 600
  const majorityRead = (client: MongoClient, id: number) =>
    client.db('peer').collection<{ _id: number }>('plants').findOne({ _id: id }, { readConcern: { level: 'majority' } })

  describe('what mongod 8 answers and checks (error_codes.yml, write_ops, OP_MSG)', function () {
    it('names code 64 WriteConcernTimeout, as mongod 8 and its error_codes.yml do', async function () {
      expect(serverErrorCode(64)?.name).to.equal('WriteConcernTimeout')
      await withRawClient(peer.uri, async (client) => {
        peer.faults.inject('insert', { kind: 'replicationLag', ms: LAG_MS }, 1)
        const failed = await client
          .db('peer')
          .collection<{ _id: number }>('plants')
          .insertOne({ _id: 1 }, { writeConcern: { w: 'majority', wtimeoutMS: 50 } })
          .catch((error: unknown) => error)
        expect(failed).to.be.instanceOf(MongoWriteConcernError)
        expect((failed as MongoWriteConcernError).result).to.deep.include({ writeConcernError: { code: 64, codeName: 'WriteConcernTimeout', errmsg: 'waiting for replication timed out', errInfo: { wtimeout: true, writeConcern: { w: 'majority', wtimeout: 50, provenance: 'clientSupplied' } } } })
        expect(writeConcernTimedOut()).to.include({ code: 64, codeName: 'WriteConcernTimeout' })
      })
    })

    it('refuses an insert of more than maxWriteBatchSize documents whole (InvalidLength, 16)', async function () {
      await withRawClient(peer.uri, async (client) => {
        const documents = Array.from({ length: MAX_WRITE_BATCH_SIZE + 1 }, (_, index) => ({ _id: index }))
        const refused = await client.db('peer').command({ insert: 'plants', documents }).catch((error: unknown) => error)
        expect(refused).to.be.instanceOf(MongoServerError)
        expect((refused as MongoServerError).code).to.equal(16)
        expect(peer.documents('peer.plants')).to.deep.equal([])
      })
    })

    it('checks an OP_MSG checksum that is present: a right one is answered, a wrong one closes the connection', async function () {
      const answered = async (checksum: (message: Buffer) => number): Promise<boolean> => {
        const socket = connect(peer.port, '127.0.0.1')
        await once(socket, 'connect')
        const body = serialize({ ping: 1, $db: 'admin' })
        const message = Buffer.alloc(16 + 5 + body.length + 4)
        message.writeInt32LE(message.length, 0)
        message.writeInt32LE(1, 4)
        message.writeInt32LE(2013, 12)
        message.writeUInt32LE(1, 16)
        message.set(body, 21)
        message.writeUInt32LE(checksum(message.subarray(0, message.length - 4)), message.length - 4)
        socket.write(message)
        const outcome = await Promise.race([once(socket, 'data').then(() => true), once(socket, 'close').then(() => false)])
        socket.destroy()
        return outcome
      }
      expect(await answered(crc32c), 'the right checksum').to.equal(true)
      expect(await answered((bytes) => (crc32c(bytes) + 1) >>> 0), 'a wrong checksum').to.equal(false)
    })

    it('delayApply: the insert is received at once, applied after the delay, even with its client gone', async function () {
      const client = new MongoClient(peer.uri, { serverSelectionTimeoutMS: 5000 })
      try {
        await client.db('peer').command({ ping: 1 })
        peer.faults.inject('insert', { kind: 'delayApply', ms: 300 }, 1)
        const insert = client.db('peer').collection<{ _id: number }>('plants').insertOne({ _id: 1 }, { signal: AbortSignal.timeout(100) } as object).catch((error: unknown) => error)
        await new Promise((resolve) => setTimeout(resolve, 150))
        expect(peer.documents('peer.plants'), 'not applied yet').to.deep.equal([])
        expect(await insert).to.be.instanceOf(Error)
        await new Promise((resolve) => setTimeout(resolve, 300))
        expect(peer.documents('peer.plants').length, 'applied after its client gave up').to.equal(1)
      } finally {
        await client.close()
      }
    })
  })

  describe('write concern "majority"', function () {
    it('is honoured on a retried write: the retry is acknowledged once a majority has the first attempt', async function () {
      await withRawClient(peer.uri, async (client) => {
        const plants = client.db('peer').collection<{ _id: number; name: string }>('plants')
        peer.faults.inject('insert', { kind: 'dropAfterRun', replicationLagMs: LAG_MS }, 1)
        await plants.insertOne({ _id: 1, name: 'Monstera' }, { writeConcern: { w: 'majority' } })
        expect(await majorityRead(client, 1)).to.deep.equal({ _id: 1, name: 'Monstera' })
      })
    })

    it('is honoured on a duplicate key: E11000 comes once a majority has the write that holds the id', async function () {
      await withRawClient(peer.uri, async (client) => {
        const plants = client.db('peer').collection<{ _id: number; name: string }>('plants')
        peer.faults.inject('insert', { kind: 'replicationLag', ms: LAG_MS }, 1)
        const first = plants.insertOne({ _id: 1, name: 'Monstera' }, { writeConcern: { w: 'majority' } })
        await new Promise((resolve) => setTimeout(resolve, 50))
        const second = await plants.insertOne({ _id: 1, name: 'Fern' }, { writeConcern: { w: 'majority' } }).catch((error: unknown) => error)
        expect(second).to.be.instanceOf(MongoServerError)
        expect((second as MongoServerError).code).to.equal(11000)
        expect(await majorityRead(client, 1)).to.deep.equal({ _id: 1, name: 'Monstera' })
        await first
      })
    })
  })

  describe('replication: the oplog, the majority commit point, a step-down', function () {
    const plantsOf = (client: MongoClient) => client.db('peer').collection<{ _id: number }>('plants')
    const reached = async (count: number): Promise<void> => {
      while (peer.documents('peer.plants').length < count) await new Promise((resolve) => setTimeout(resolve, 5))
    }

    it('a step-down fails every pending majority wait with writeConcernError 189 PrimarySteppedDown, the writes kept', async function () {
      const client = new MongoClient(peer.uri, { retryWrites: false, serverSelectionTimeoutMS: 2000 })
      try {
        await client.db('peer').command({ ping: 1 })
        // A majority that would come long after the test's own timeout: only the step-down answers these.
        peer.faults.inject('insert', { kind: 'replicationLag', ms: 60_000 }, 3)
        const pending = [1, 2, 3].map((id) => failureOf(plantsOf(client).insertOne({ _id: id }, { writeConcern: { w: 'majority' } })))
        await reached(3)
        peer.stepDown()
        for (const failure of await Promise.all(pending)) {
          expect(failure).to.be.instanceOf(MongoWriteConcernError)
          expect((failure as MongoWriteConcernError).result).to.deep.include({
            writeConcernError: { code: 189, codeName: 'PrimarySteppedDown', errmsg: 'Primary stepped down while waiting for replication' },
          })
        }
        expect(peer.documents('peer.plants').map(({ _id }) => Number(_id)).sort()).to.deep.equal([1, 2, 3])
      } finally {
        await client.close()
      }
    })

    it('labels the step-down of a retryable write RetryableWriteError, so the driver retries it on the next primary', async function () {
      const client = new MongoClient(peer.uri, { monitorCommands: true, serverSelectionTimeoutMS: 5000 })
      try {
        const labels: string[][] = []
        client.on('commandSucceeded', (event) => {
          const reply = event.reply as { writeConcernError?: unknown; errorLabels?: string[] }
          if (reply.writeConcernError !== undefined) labels.push(reply.errorLabels ?? [])
        })
        await client.db('peer').command({ ping: 1 })
        peer.faults.inject('insert', { kind: 'replicationLag', ms: 1000 }, 1)
        const insert = plantsOf(client).insertOne({ _id: 1 }, { writeConcern: { w: 'majority' } })
        await reached(1)
        peer.stepDown()
        setTimeout(() => peer.stepUp(), 300)
        await insert
        expect(labels).to.deep.equal([['RetryableWriteError']])
        expect(peer.documents('peer.plants')).to.have.length(1)
      } finally {
        await client.close()
      }
    })

    it('replies carry $clusterTime and operationTime; a write names its opTime and election; hello its lastWrite', async function () {
      const client = new MongoClient(peer.uri, { monitorCommands: true, serverSelectionTimeoutMS: 5000 })
      const replies = new Map<string, Record<string, unknown>>()
      client.on('commandSucceeded', (event) => replies.set(event.commandName, event.reply as Record<string, unknown>))
      try {
        await client.db('peer').command({ ping: 1 })
        await plantsOf(client).insertOne({ _id: 1 })
        await plantsOf(client).findOne({ _id: 1 }, { readConcern: { level: 'majority' } })
        await client.db('peer').command({ hello: 1 })
      } finally {
        await client.close()
      }
      for (const name of ['ping', 'insert', 'find', 'hello']) {
        const reply = replies.get(name) ?? {}
        const gossip = reply.$clusterTime as { clusterTime?: unknown; signature?: { hash?: unknown; keyId?: unknown } } | undefined
        expect(gossip?.clusterTime, `${name}: $clusterTime.clusterTime`).to.be.instanceOf(Timestamp)
        expect(gossip?.signature?.keyId, `${name}: $clusterTime.signature`).to.not.equal(undefined)
        expect(reply.operationTime, `${name}: operationTime`).to.be.instanceOf(Timestamp)
      }
      const insert = replies.get('insert') as { opTime: { ts: Timestamp; t: unknown }; electionId: unknown; operationTime: Timestamp }
      expect(insert.opTime.ts).to.be.instanceOf(Timestamp)
      expect(Number(insert.opTime.t)).to.equal(1)
      expect(insert.electionId).to.be.instanceOf(ObjectId)
      expect(insert.operationTime.equals(insert.opTime.ts), "an insert's operationTime is its opTime's").to.equal(true)
      const lastWrite = (replies.get('hello') as { lastWrite: { opTime: { ts: Timestamp }; majorityOpTime: { ts: Timestamp }; lastWriteDate: unknown } }).lastWrite
      expect(lastWrite.opTime.ts.equals(insert.opTime.ts), "hello's lastWrite is the insert").to.equal(true)
      expect(lastWrite.majorityOpTime.ts.equals(insert.opTime.ts)).to.equal(true)
      expect(lastWrite.lastWriteDate).to.be.instanceOf(Date)
    })

    it('the commit point moves in oplog order: no write is majority-committed before an earlier one', async function () {
      await withRawClient(peer.uri, async (client) => {
        peer.faults.inject('insert', { kind: 'replicationLag', ms: LAG_MS }, 1)
        const slow = plantsOf(client).insertOne({ _id: 1 }, { writeConcern: { w: 1 } })
        await slow
        await plantsOf(client).insertOne({ _id: 2 }, { writeConcern: { w: 1 } })
        expect(await majorityRead(client, 2), 'the later write, before the earlier one is committed').to.equal(null)
        await plantsOf(client).insertOne({ _id: 3 }, { writeConcern: { w: 'majority' } })
        expect(await majorityRead(client, 1)).to.deep.equal({ _id: 1 })
      })
    })

    it("a duplicate key waits for the system's last optime, as mongod's does: the majority then has every write before it", async function () {
      await withRawClient(peer.uri, async (client) => {
        await plantsOf(client).insertOne({ _id: 1 })
        peer.faults.inject('insert', { kind: 'replicationLag', ms: LAG_MS }, 1)
        await plantsOf(client).insertOne({ _id: 2 }, { writeConcern: { w: 1 } })
        const duplicate = await failureOf(plantsOf(client).insertOne({ _id: 1 }, { writeConcern: { w: 'majority' } }))
        expect(duplicate).to.include({ code: 11000 })
        expect(await majorityRead(client, 2), 'the write after the one holding the id').to.deep.equal({ _id: 2 })
      })
    })

    it('read concern majority after a cluster time (a causally consistent session) waits for the commit point to reach it', async function () {
      await withRawClient(peer.uri, async (client) => {
        const session = client.startSession({ causalConsistency: true })
        try {
          peer.faults.inject('insert', { kind: 'replicationLag', ms: LAG_MS }, 1)
          await plantsOf(client).insertOne({ _id: 1 }, { writeConcern: { w: 1 }, session })
          expect(await majorityRead(client, 1), 'outside the session').to.equal(null)
          const read = await plantsOf(client).findOne({ _id: 1 }, { readConcern: { level: 'majority' }, session })
          expect(read, 'in the session, after its write').to.deep.equal({ _id: 1 })
        } finally {
          await session.endSession()
        }
      })
    })
  })

  describe('find', function () {
    it('reads by _id as the _id index does: int32, int64 and double ids of one value are one key, other fields still filter', async function () {
      await withRawClient(peer.uri, async (client) => {
        const plants = client.db('peer').collection<{ _id: number | bigint; name: string }>('plants')
        await plants.insertMany([{ _id: 1, name: 'Monstera' }, { _id: 2n ** 40n, name: 'Fern' }, { _id: 3, name: 'Fern' }])
        expect(await plants.findOne({ _id: 2 ** 40 })).to.deep.equal({ _id: 2n ** 40n, name: 'Fern' })
        expect(await plants.findOne({ _id: 2n ** 40n, name: 'Monstera' })).to.equal(null)
        expect(await plants.findOne({ _id: 4 })).to.equal(null)
        expect(await plants.find({ name: 'Fern' }).toArray()).to.have.length(2)
      })
    })
  })

  describe('the RetryableWriteError label', function () {
    const labelsOf = async (code: number, name: string): Promise<ReadonlyArray<string>> =>
      withRawClient(peer.uri, async (client) => {
        peer.faults.inject('insert', serverError(code, name))
        const failure = await client.db('peer').collection<{ _id: number }>('plants').insertOne({ _id: code }).catch((error: unknown) => error)
        peer.faults.clear()
        expect(failure, name).to.be.instanceOf(MongoServerError)
        return (failure as MongoServerError).errorLabels
      })

    it("is given to a retryable write's error whose code is in the RetriableError category", async function () {
      for (const { code, name } of codesInCategories(['RetriableError']).filter(({ categories }) => !categories.includes('NotPrimaryError'))) {
        expect(await labelsOf(code, name), name).to.include('RetryableWriteError')
      }
    })

    it('is not given to any other code', async function () {
      for (const [code, name] of [[112, 'WriteConflict'], [11601, 'Interrupted'], [13, 'Unauthorized'], [100, 'UnsatisfiableWriteConcern']] as const) {
        expect(await labelsOf(code, name), name).to.not.include('RetryableWriteError')
      }
    })
  })

  const failureOf = (work: Promise<unknown>): Promise<unknown> => work.then(
    () => expect.fail('expected a failure'),
    (error: unknown) => error,
  )

  describe('the document size limit (mongod 8.0: insert.cpp, BSONObj validation)', function () {
    // {_id: <int32>, x: <string>} takes 22 bytes besides the string's characters.
    const sized = (id: number, bytes: number) => ({ _id: id, x: 'a'.repeat(bytes - 22) })

    it('stores a document of exactly maxBsonObjectSize, and refuses a larger one as its own write error (BadValue)', async function () {
      await withRawClient(peer.uri, async (client) => {
        const plants = client.db('peer').collection<{ _id: number; x: string }>('plants')
        await plants.insertOne(sized(1, MAX_BSON_OBJECT_SIZE))
        const failure = await failureOf(plants.insertOne(sized(2, MAX_BSON_OBJECT_SIZE + 1)))
        expect(failure).to.be.instanceOf(MongoServerError)
        expect(failure).to.include({ code: 2 })
        expect((failure as Error).message).to.equal(`object to insert too large. size in bytes: ${MAX_BSON_OBJECT_SIZE + 1}, max size: ${MAX_BSON_OBJECT_SIZE}`)
        expect(peer.documents('peer.plants').map((document) => Number(document._id))).to.deep.equal([1])
      })
    })

    it('refuses a command whose own object is over the internal limit as a whole (BSONObjectTooLarge, 10334)', async function () {
      await withRawClient(peer.uri, async (client) => {
        const failure = await failureOf(client.db('peer').collection<{ _id: number; x: string }>('plants').insertOne(sized(1, MAX_INTERNAL_BSON_OBJECT_SIZE)))
        expect(failure).to.be.instanceOf(MongoServerError)
        expect(failure).to.include({ code: 10334, codeName: 'BSONObjectTooLarge' })
        expect(peer.documents('peer.plants')).to.deep.equal([])
      })
    })
  })

  describe('the duplicate key error', function () {
    const duplicateOn = async (uri: string): Promise<MongoServerError> =>
      withRawClient(uri, async (client) => {
        const plants = client.db('peer').collection<{ _id: number }>('plants')
        await plants.insertOne({ _id: 5 })
        const failure = await failureOf(plants.insertOne({ _id: 5 }))
        expect(failure).to.be.instanceOf(MongoServerError)
        return failure as MongoServerError
      })

    it('names the _id index on a collection that has one', async function () {
      const failure = await duplicateOn(peer.uri)
      expect(failure.message).to.equal('E11000 duplicate key error collection: peer.plants index: _id_ dup key: { _id: 5 }')
      expect(failure.errorResponse).to.deep.include({ code: 11000, keyPattern: { _id: 1 }, keyValue: { _id: 5 } })
    })

    it('names no index on a clustered collection, whose key pattern is still {_id: 1}', async function () {
      const clustered = await startMongoPeer({ idUniqueness: 'clustered' })
      try {
        const failure = await duplicateOn(clustered.uri)
        expect(failure.message).to.equal('E11000 duplicate key error collection: peer.plants dup key: { _id: 5 }')
        expect(failure.errorResponse).to.deep.include({ code: 11000, keyPattern: { _id: 1 }, keyValue: { _id: 5 } })
      } finally {
        await clustered.stop()
      }
    })
  })

  describe('an overloaded server', function () {
    it('labels its refusal SystemOverloadedError and RetryableError (and, for a retryable write, RetryableWriteError and NoWritesPerformed), with its back-off base', async function () {
      await withRawClient(peer.uri, async (client) => {
        const seen: string[][] = []
        client.on('commandFailed', (event) => seen.push(((event.failure as MongoServerError).errorLabels ?? []).slice().sort()))
        peer.faults.inject('insert', overloaded(50), 1)
        const plants = client.db('peer').collection<{ _id: number }>('plants')
        // The driver backs off and retries on these labels.
        await plants.insertOne({ _id: 1 })
        expect(peer.documents('peer.plants')).to.have.length(1)
        peer.faults.inject('insert', overloaded(50))
        const failure = await failureOf(plants.insertOne({ _id: 2 }))
        expect(failure).to.be.instanceOf(MongoServerError)
        expect(failure).to.include({ code: 462 })
        expect((failure as MongoServerError).errorLabels.slice().sort()).to.deep.equal(['NoWritesPerformed', 'RetryableError', 'RetryableWriteError', 'SystemOverloadedError'])
        expect(Number((failure as MongoServerError).errorResponse.baseBackoffMS)).to.equal(50)
      })
    })

    it('gives NoWritesPerformed to no error of a command that wrote', async function () {
      await withRawClient(peer.uri, async (client) => {
        peer.faults.inject('insert', interruptedInsert(1, 11602))
        const failure = await failureOf(client.db('peer').collection<{ _id: number }>('plants').insertMany([{ _id: 1 }, { _id: 2 }]))
        expect(failure).to.be.instanceOf(MongoBulkWriteError)
        // The driver keeps the first attempt's error: the second wrote nothing.
        expect((failure as MongoServerError).errorLabels).to.include('RetryableWriteError').and.not.include('NoWritesPerformed')
        peer.faults.clear()
        peer.faults.inject('insert', writeConcernTimedOut(), 1)
        const concern = await failureOf(client.db('peer').collection<{ _id: number }>('plants').insertOne({ _id: 3 }))
        expect((concern as MongoServerError).errorLabels).to.not.include('NoWritesPerformed')
      })
    })
  })

  describe('an insert interrupted part-way', function () {
    it('keeps the documents applied before the interruption and fails as a whole; a killOp is not labelled for a retry', async function () {
      await withRawClient(peer.uri, async (client) => {
        peer.faults.inject('insert', interruptedInsert(2, 11601), 1)
        const failure = await failureOf(client.db('peer').collection<{ _id: number }>('plants').insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }], { ordered: false }))
        expect(failure).to.be.instanceOf(MongoBulkWriteError)
        expect(failure).to.include({ code: 11601 })
        expect((failure as MongoServerError).errorLabels).to.deep.equal([])
        expect(peer.documents('peer.plants').map((document) => Number(document._id))).to.deep.equal([1, 2])
      })
    })

    it('a step-down is retried by the driver, which the server answers from its record for the documents applied', async function () {
      await withRawClient(peer.uri, async (client) => {
        peer.faults.inject('insert', interruptedInsert(2, 11602), 1)
        const result = await client.db('peer').collection<{ _id: number }>('plants').insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }], { ordered: false })
        expect(result.insertedCount).to.equal(3)
        expect(peer.documents('peer.plants').map((document) => Number(document._id))).to.deep.equal([1, 2, 3])
      })
    })
  })

  describe('monitoring, restarts and partitions', function () {
    const HEARTBEAT_MS = 500
    const watching = async <A>(
      uri: string,
      work: (client: MongoClient, seen: { awaited: boolean[]; changes: ServerDescriptionChangedEvent[] }) => Promise<A>,
    ): Promise<A> => {
      const client = new MongoClient(uri, { heartbeatFrequencyMS: HEARTBEAT_MS, serverSelectionTimeoutMS: 3000 })
      const seen = { awaited: [] as boolean[], changes: [] as ServerDescriptionChangedEvent[] }
      client.on('serverHeartbeatSucceeded', (event) => seen.awaited.push(event.awaited))
      client.on('serverDescriptionChanged', (event) => seen.changes.push(event))
      try {
        return await work(client, seen)
      } finally {
        await client.close()
      }
    }

    for (const monitoring of PEER_MONITORING_MODES) {
      it(`${monitoring}: the driver ${monitoring === 'streaming' ? 'streams hello (awaited heartbeats, topologyVersion)' : 'polls hello'}`, async function () {
        const polling = await startMongoPeer({ monitoring })
        try {
          await watching(polling.uri, async (client, seen) => {
            await client.db('peer').command({ ping: 1 })
            await new Promise((resolve) => setTimeout(resolve, 3 * HEARTBEAT_MS))
            expect(seen.awaited).to.include(monitoring === 'streaming')
            expect(seen.awaited).to.not.include(monitoring !== 'streaming')
            const primary = seen.changes.at(-1)?.newDescription
            expect(primary?.type).to.equal('RSPrimary')
            expect(primary?.topologyVersion === null || primary?.topologyVersion === undefined).to.equal(monitoring === 'polling')
          })
        } finally {
          await polling.stop()
        }
      })
    }

    it('a restart: a new process id, secondary for a moment, then primary in the next election term', async function () {
      await watching(peer.uri, async (client, seen) => {
        await client.db('peer').command({ ping: 1 })
        const before = seen.changes.at(-1)?.newDescription
        await peer.restart(300)
        await client.db('peer').collection<{ _id: number }>('plants').insertOne({ _id: 1 })
        const types = seen.changes.map((event) => event.newDescription.type)
        expect(types.slice(types.lastIndexOf('Unknown'))).to.deep.equal(['Unknown', 'RSSecondary', 'RSPrimary'])
        const after = seen.changes.at(-1)?.newDescription
        expect(after?.topologyVersion?.processId.toHexString()).to.not.equal(before?.topologyVersion?.processId.toHexString())
        expect(after?.electionId?.toHexString()).to.equal('7fffffff0000000000000002')
      })
    })

    it('a quiet network holds what is sent into it and delivers it when it heals, as TCP does: an insert whose client gave up is applied', async function () {
      await withRawClient(peer.uri, async (client) => {
        const plants = client.db('peer').collection<{ _id: number }>('plants')
        await plants.insertOne({ _id: 1 })
        peer.goQuiet()
        const failure = await failureOf(plants.insertOne({ _id: 2 }, { signal: AbortSignal.timeout(300) } as never))
        expect(failure).to.be.instanceOf(Error)
        await new Promise((resolve) => setTimeout(resolve, 200))
        expect(peer.documents('peer.plants')).to.have.length(1)
        peer.endQuiet()
        await new Promise((resolve) => setTimeout(resolve, 200))
        expect(peer.documents('peer.plants').map((document) => Number(document._id))).to.deep.equal([1, 2])
      })
    })

    it('a quiet network: nothing is answered and nothing is closed, so the client times out', async function () {
      peer.goQuiet()
      const client = new MongoClient(peer.uri, { connectTimeoutMS: 300, serverSelectionTimeoutMS: 600, directConnection: true })
      try {
        const failure = await client.db('peer').command({ ping: 1 }).catch((error: unknown) => error)
        expect(failure).to.be.instanceOf(Error)
        expect(String((failure as Error).message)).to.match(/timed out/).and.not.match(/closed|ECONNRESET|ECONNREFUSED/)
      } finally {
        await client.close()
        peer.endQuiet()
      }
    })
  })
})
