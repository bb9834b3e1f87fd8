import { expect } from 'chai'
import { MongoClient, MongoServerError, type ServerDescriptionChangedEvent } from 'mongodb'
import { codesInCategories } from '../../support/mongo-peer/error-codes.js'
import { serverError } from '../../support/mongo-peer/faults.js'
import { PEER_MONITORING_MODES, startMongoPeer, type MongoPeer } from '../../support/mongo-peer/server.js'
import { withRawClient } from './support.js'

// The wire peer stands in for mongod in the adapter's fault tests: where the adapter depends on
// what mongod does, the peer must do it too, or a test passes that a real server would fail.
describe('the wire peer behaves as mongod', function () {
  this.timeout(10_000)
  let peer: MongoPeer
  beforeEach(async function () {
    peer = await startMongoPeer()
  })
  afterEach(async function () {
    await peer.stop()
  })

  const LAG_MS = 600
  const majorityRead = (client: MongoClient, id: number) =>
    client.db('peer').collection<{ _id: number }>('plants').findOne({ _id: id }, { readConcern: { level: 'majority' } })

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
