import { expect } from 'chai'
import type { Document } from 'bson'
import * as E from 'fp-ts/lib/Either.js'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { inspect } from 'node:util'
import { MongoServerError } from 'mongodb'
import type { MongoPlantStore } from '../../../adapters/mongodb/index.js'
import type { InsertOutcome, NewPlant, PlantStore, StoreError } from '../../../core/index.js'
import { expectRight } from '../../support/either.js'
import { documentValidationFailure, shutdownDuringWriteConcern, writeConcernTimedOut } from '../../support/mongo-peer/faults.js'
import { startMongoPeer, type MongoPeer } from '../../support/mongo-peer/server.js'
import { plant } from '../../support/plants.js'
import { freshDbName, openStore } from './support.js'

// Issue 20's stretch: creates that arrive together go to MongoDB as one unordered insert, and each
// call still gets the outcome a lone insert of its plant would have had. Every test sends its
// creates at once and checks, from the commands the peer received, that they did share a batch.
describe('creates that arrive together: one insert, each plant its own outcome (wire peer)', function () {
  let peer: MongoPeer
  let dbName: string
  let inserts: Document[][]
  const opened: MongoPlantStore[] = []
  const open = (uri = peer.uri): PlantStore => {
    const storage = openStore(uri, dbName)
    opened.push(storage)
    return storage.store
  }
  const storedIds = (): string[] => peer.documents(`${dbName}.plants`).map((document) => String(document._id)).sort()
  const createAll = (store: PlantStore, plants: ReadonlyArray<NewPlant>): Promise<Array<E.Either<StoreError, InsertOutcome>>> =>
    Promise.all(plants.map((each) => store.insertUnlessExists(each)()))
  const idsIn = (command: ReadonlyArray<Document>): string[] => command.map((document) => String(document._id))

  beforeEach(async function () {
    inserts = []
    peer = await startMongoPeer({
      onCommand: (name, command) => (name === 'insert' ? inserts.push(command.documents as Document[]) : undefined),
    })
    dbName = freshDbName('batches')
  })
  afterEach(async function () {
    await Promise.all(opened.splice(0).map((storage) => storage.close()))
    await peer.stop()
  })

  const plants = (count: number, from = 1): NewPlant[] =>
    Array.from({ length: count }, (_, index) => plant(BigInt(from + index), `plant ${from + index}`))

  it('sends a lone create at once, alone: it waits for no company', async function () {
    const store = open()
    expectRight(await store.checkReady()())
    const first = store.insertUnlessExists(plant(1n, 'Monstera'))()
    // The second create is made only once the first has reached MongoDB: had the first waited
    // for company, it would wait for ever here.
    while (inserts.length === 0) await nextTurn()
    const second = store.insertUnlessExists(plant(2n, 'Fern'))()
    expect((await Promise.all([first, second])).map((outcome) => expectRight(outcome))).to.deep.equal([
      { _tag: 'Inserted', plant: plant(1n, 'Monstera') },
      { _tag: 'Inserted', plant: plant(2n, 'Fern') },
    ])
    expect(inserts.map(idsIn)).to.deep.equal([['1'], ['2']])
  })

  it('sends 40 creates made at once as one insert, and answers each Inserted with its own plant', async function () {
    const store = open()
    expectRight(await store.checkReady()())
    const sent = plants(40)
    const outcomes = await createAll(store, sent)
    expect(outcomes.map((outcome) => expectRight(outcome))).to.deep.equal(sent.map((each) => ({ _tag: 'Inserted', plant: each })))
    expect(inserts.map((command) => command.length)).to.deep.equal([40])
    expect(storedIds()).to.deep.equal(sent.map(({ id }) => String(id)).sort())
  })

  it('answers each plant of a batch that meets taken ids on its own: inserted, replay, the other plant', async function () {
    const store = open()
    await createAll(store, [plant(1n, 'Monstera'), plant(2n, 'Fern')])
    inserts = []
    const outcomes = await createAll(store, [
      plant(1n, 'Monstera'), // the same plant again
      plant(2n, 'Cactus'), // another plant under a taken id
      plant(3n, 'Ivy'), // a fresh id
      plant(4n, 'Palm'),
      plant(4n, 'Palm'), // the same plant twice in one batch
      plant(5n, 'Aloe'),
      plant(5n, 'Yucca'), // two plants under one id in one batch
    ])
    expect(inserts.map(idsIn)).to.deep.equal([['1', '2', '3', '4', '4', '5', '5']])
    expect(outcomes.map((outcome) => expectRight(outcome))).to.deep.equal([
      { _tag: 'AlreadyStored', stored: plant(1n, 'Monstera') },
      { _tag: 'AlreadyStored', stored: plant(2n, 'Fern') },
      { _tag: 'Inserted', plant: plant(3n, 'Ivy') },
      { _tag: 'Inserted', plant: plant(4n, 'Palm') },
      { _tag: 'AlreadyStored', stored: plant(4n, 'Palm') },
      { _tag: 'Inserted', plant: plant(5n, 'Aloe') },
      { _tag: 'AlreadyStored', stored: plant(5n, 'Aloe') },
    ])
    expect(storedIds()).to.deep.equal(['1', '2', '3', '4', '5'])
  })

  it('fails only the call whose document MongoDB refuses; the others of its batch are stored', async function () {
    const store = open()
    expectRight(await store.checkReady()())
    peer.faults.inject('insert', documentValidationFailure((document) => String(document._id) === '3'), 1)
    const settled = await Promise.allSettled(plants(5).map((each) => store.insertUnlessExists(each)()))
    expect(inserts.map(idsIn)).to.deep.equal([['1', '2', '3', '4', '5']])
    settled.forEach((result, index) => {
      if (index === 2) {
        // Not an outage: thrown, as a lone insert's refusal is, for the error boundary (a 500).
        expect(result.status).to.equal('rejected')
        const reason = (result as PromiseRejectedResult).reason as unknown
        expect(reason).to.be.instanceOf(MongoServerError)
        expect((reason as MongoServerError).code).to.equal(121)
        expect(inspect(reason, { depth: 5 }), 'the refused plant, carried into the logs').not.to.include('plant 3')
      } else {
        expect(result.status).to.equal('fulfilled')
        expect(expectRight((result as PromiseFulfilledResult<E.Either<StoreError, InsertOutcome>>).value)._tag).to.equal('Inserted')
      }
    })
    expect(storedIds()).to.deep.equal(['1', '2', '4', '5'])
  })

  it('a socket dropped after the batch was written: the driver retries it, the plants that landed are not conflicts, each is stored once', async function () {
    const store = open()
    expectRight(await store.checkReady()())
    peer.faults.inject('insert', { kind: 'dropAfterRun' }, 1)
    const sent = plants(10)
    const outcomes = await createAll(store, sent)
    // The retry is the same batch under the same transaction number: the server answers the
    // documents it wrote from its record, as mongod does, so each call reads as created.
    const batch = sent.map(({ id }) => String(id))
    expect(inserts.map(idsIn)).to.deep.equal([batch, batch])
    expect(outcomes.map((outcome) => expectRight(outcome))).to.deep.equal(sent.map((each) => ({ _tag: 'Inserted', plant: each })))
    expect(storedIds()).to.have.length(10)
  })

  // Faults that leave every plant of the batch written but none acknowledged.
  const unacknowledged = [
    { name: 'a socket dropped on both tries', fault: { kind: 'dropAfterRun' } as const, times: 2, sentAs: [10, 10] },
    { name: 'a write concern timeout', fault: writeConcernTimedOut(), times: 1, sentAs: [10] },
  ]
  for (const { name, fault, times, sentAs } of unacknowledged) {
    it(`${name}: every call StorageUnavailable, the plants kept, and every client retry a replay, never a conflict`, async function () {
      const store = open()
      expectRight(await store.checkReady()())
      peer.faults.inject('insert', fault, times)
      const sent = plants(10)
      const first = await createAll(store, sent)
      expect(inserts.map((command) => command.length)).to.deep.equal(sentAs)
      expect(first.map((outcome) => E.isLeft(outcome) && outcome.left._tag)).to.deep.equal(sent.map(() => 'StorageUnavailable'))
      expect(storedIds()).to.have.length(10)
      const retried = await createAll(store, sent)
      expect(retried.map((outcome) => expectRight(outcome))).to.deep.equal(sent.map((each) => ({ _tag: 'AlreadyStored', stored: each })))
    })
  }

  it('a retryable write concern error (shutdown) once: the driver retries the batch, every call Inserted', async function () {
    const store = open()
    expectRight(await store.checkReady()())
    peer.faults.inject('insert', shutdownDuringWriteConcern(), 1)
    const sent = plants(6)
    const outcomes = await createAll(store, sent)
    expect(inserts.map((command) => command.length)).to.deep.equal([6, 6])
    expect(outcomes.map((outcome) => expectRight(outcome))).to.deep.equal(sent.map((each) => ({ _tag: 'Inserted', plant: each })))
    expect(storedIds()).to.have.length(6)
  })

  it('a write concern the replica set cannot satisfy: every call of the batch names the configuration fault', async function () {
    const store = open(`${peer.uri}&w=3`)
    expectRight(await store.checkReady()())
    const outcomes = await createAll(store, plants(5))
    expect(inserts.map((command) => command.length)).to.deep.equal([5])
    for (const outcome of outcomes) {
      const refused = E.isLeft(outcome) ? outcome.left : undefined
      expect(refused?._tag).to.equal('StorageUnavailable')
      expect(refused?._tag === 'StorageUnavailable' ? refused.configurationFault : undefined).to.match(/UnsatisfiableWriteConcern/)
    }
  })
})
