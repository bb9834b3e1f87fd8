import { expect } from 'chai'
import { MongoServerError, type MongoClient } from 'mongodb'
import { codesInCategories } from '../../support/mongo-peer/error-codes.js'
import { serverError } from '../../support/mongo-peer/faults.js'
import { startMongoPeer, type MongoPeer } from '../../support/mongo-peer/server.js'
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
})
