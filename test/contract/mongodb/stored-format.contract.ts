import { expect } from 'chai'
import { Int32, MongoServerError } from 'mongodb'
import { expectRight } from '../../support/either.js'
import { plant } from '../../support/plants.js'
import { freshDbName, openStore, withRawClient } from '../../support/mongodb/support.js'

/**
 * What the adapter leaves in MongoDB and what MongoDB answers it, looked at with a plain driver
 * client. Run against a real mongod and against the wire peer, it shows the peer answers as
 * mongod does where the adapter depends on it.
 */
export const storedFormatContract = (label: string, serverUri: (this: Mocha.Context) => Promise<string>): void => {
  describe(`stored format and server answers: ${label}`, function () {
    let uri = ''
    let dbName = ''
    beforeEach(async function () {
      uri = await serverUri.call(this)
      dbName = freshDbName('format')
    })
    afterEach(async function () {
      if (uri !== '') await withRawClient(uri, (client) => client.db(dbName).dropDatabase())
    })

    it('keeps a plant as {_id: int64, name, tag}', async function () {
      const { store, close } = openStore(uri, dbName)
      try {
        expectRight(await store.insertUnlessExists(plant(2n ** 53n + 1n, 'Aloe', 'succulent'))())
        expectRight(await store.insertUnlessExists(plant(5n, 'Fern'))())
      } finally {
        await close()
      }
      const documents = await withRawClient(uri, (client) =>
        client.db(dbName).collection('plants').find({}).toArray(),
      )
      documents.sort((a, b) => (a._id < b._id ? -1 : 1))
      // With useBigInt64 a BSON int64 reads back as a bigint and an int32 as a number: `5n` shows
      // the small id was stored as an int64 too.
      expect(documents).to.deep.equal([
        { _id: 5n, name: 'Fern' },
        { _id: 2n ** 53n + 1n, name: 'Aloe', tag: 'succulent' },
      ])
    })

    it('refuses a second document under one _id with the duplicate-key error the adapter reads', async function () {
      const failure = await withRawClient(uri, async (client) => {
        const plants = client.db(dbName).collection<{ _id: bigint; name: string }>('plants')
        await plants.insertOne({ _id: 9007199254740993n, name: 'first' })
        return plants.insertOne({ _id: 9007199254740993n, name: 'second' }).then(
          () => undefined,
          (error: unknown) => error,
        )
      })
      expect(failure).to.be.instanceOf(MongoServerError)
      const error = failure as MongoServerError
      expect(error.code).to.equal(11000)
      expect(error.errorResponse.keyPattern).to.deep.equal({ _id: 1 })
      expect(error.errorResponse.keyValue).to.deep.equal({ _id: 9007199254740993n })
      expect(error.message).to.match(
        new RegExp(`^E11000 duplicate key error collection: ${dbName}\\.plants index: _id_ dup key: \\{ _id: .*9007199254740993`),
      )
    })

    it('answers hello as the writable primary of a replica set that has sessions', async function () {
      const hello = await withRawClient(uri, (client) => client.db('admin').command({ hello: 1 }))
      expect(hello.isWritablePrimary).to.equal(true)
      expect(hello.setName).to.be.a('string')
      expect(hello.logicalSessionTimeoutMinutes).to.be.a('number')
      expect(Number(hello.maxWireVersion)).to.be.at.least(9)
    })

    it('finds a plant another tool stored under an int32 _id of the same value', async function () {
      await withRawClient(uri, (client) =>
        client.db(dbName).collection('plants').insertOne({ _id: new Int32(42) as never, name: 'Ivy' }),
      )
      const { store, close } = openStore(uri, dbName)
      try {
        const outcome = expectRight(await store.insertUnlessExists(plant(42n, 'Other'))())
        expect(outcome).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(42n, 'Ivy') })
      } finally {
        await close()
      }
    })
  })
}
