import { expect } from 'chai'
import type { Document } from 'bson'
import * as E from 'fp-ts/lib/Either.js'
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises'
import { inspect } from 'node:util'
import { BSON, MongoBulkWriteError, MongoServerError } from 'mongodb'
import type { MongoPlantStore } from '../../../../adapters/mongodb/index.js'
import type { InsertOutcome, NewPlant, PlantStore, StoreError } from '../../../../core/index.js'
import { expectRight } from '../../../support/either.js'
import { MAX_BSON_OBJECT_SIZE, type IdUniqueness } from '../../../support/mongo-peer/commands.js'
import {
  documentValidationFailure,
  interruptedInsert,
  overloaded,
  serverError,
  shutdownDuringWriteConcern,
  writeConcernTimedOut,
} from '../../../support/mongo-peer/faults.js'
import { startMongoPeer, type MongoPeer, type MongoPeerOptions } from '../../../support/mongo-peer/server.js'
import { plant } from '../../../support/plants.js'
import { createYardstickMs, freshDbName, openStore, TEST_TIMEOUTS, timed } from '../../../support/mongodb/support.js'

// Creates that arrive together go to MongoDB as one unordered insert, and each
// call still gets the outcome a lone insert of its plant would have had. Every test sends its
// creates at once and checks, from the commands the peer received, that they did share a batch.
describe('creates that arrive together: one insert, each plant its own outcome (wire peer)', function () {
  let peer: MongoPeer
  let dbName: string
  let inserts: Document[][]
  const opened: MongoPlantStore[] = []
  const open = (uri = peer.uri, timeouts = TEST_TIMEOUTS): PlantStore => {
    const storage = openStore(uri, dbName, timeouts)
    opened.push(storage)
    return storage.store
  }
  const storedIds = (): string[] => peer.documents(`${dbName}.plants`).map((document) => String(document._id)).sort()
  const createAll = (store: PlantStore, plants: ReadonlyArray<NewPlant>): Promise<Array<E.Either<StoreError, InsertOutcome>>> =>
    Promise.all(plants.map((each) => store.insertUnlessExists(each)()))
  const idsIn = (command: ReadonlyArray<Document>): string[] => command.map((document) => String(document._id))

  const startPeer = (options: MongoPeerOptions = {}): Promise<MongoPeer> =>
    startMongoPeer({
      ...options,
      onCommand: (name, command) => (name === 'insert' ? inserts.push(command.documents as Document[]) : undefined),
    })
  beforeEach(async function () {
    inserts = []
    peer = await startPeer()
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
    // A batch holds creates whose deadlines lie within a hundredth of the deadline of one another.
    // Creates made at once on a busy machine are made further apart: the deadline leaves three
    // times what 40 creates take here now (the yardstick, on a database of its own).
    const yardstick = await createYardstickMs(peer.uri, 40, 0)
    inserts = []
    const store = open(peer.uri, { ...TEST_TIMEOUTS, operationMs: Math.max(TEST_TIMEOUTS.operationMs, Math.ceil(300 * yardstick)) })
    expectRight(await store.checkReady()())
    const sent = plants(40)
    const outcomes = await createAll(store, sent)
    expect(outcomes.map((outcome) => expectRight(outcome))).to.deep.equal(sent.map((each) => ({ _tag: 'Inserted', plant: each })))
    expect(inserts.map((command) => command.length)).to.deep.equal([40])
    expect(storedIds()).to.deep.equal(sent.map(({ id }) => String(id)).sort())
  })

  // mongod names the `_id` index in a duplicate key error, but on a clustered collection it names
  // no index; in a batch the driver keeps only the message.
  for (const idUniqueness of ['idIndex', 'clustered'] satisfies IdUniqueness[]) it(`answers each plant of a batch that meets taken ids on its own: inserted, replay, the other plant (${idUniqueness})`, async function () {
    await peer.stop()
    peer = await startPeer({ idUniqueness })
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

  it('a lone create whose id is taken on a clustered collection reads the stored plant (the error names no index)', async function () {
    await peer.stop()
    peer = await startPeer({ idUniqueness: 'clustered' })
    const store = open()
    expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
    expect(expectRight(await store.insertUnlessExists(plant(1n, 'Fern'))())).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(1n, 'Monstera') })
  })

  // The driver refuses a bulk holding a document of maxBsonObjectSize or more before sending any
  // of it; mongod stores a document of exactly that size and refuses a larger one as that
  // document's own write error.
  const withSize = (id: bigint, bytes: number): NewPlant => {
    const named = plant(id, 'a'.repeat(bytes - 29))
    expect(BSON.calculateObjectSize({ _id: id, name: named.name }), 'the document size').to.equal(bytes)
    return named
  }

  // 16 MiB on the wire and through the peer take a while on a loaded machine.
  const SLOW_TIMEOUTS = { ...TEST_TIMEOUTS, operationMs: 10_000 }

  it('a document over maxBsonObjectSize fails its own create only, as mongod refuses it; the others of its batch are stored', async function () {
    this.timeout(20_000)
    const store = open(peer.uri, SLOW_TIMEOUTS)
    expectRight(await store.checkReady()())
    const sent = [...plants(2), withSize(3n, MAX_BSON_OBJECT_SIZE + 1), ...plants(2, 4)]
    const settled = await Promise.allSettled(sent.map((each) => store.insertUnlessExists(each)()))
    settled.forEach((result, index) => {
      if (index === 2) {
        expect(result.status).to.equal('rejected')
        const reason = (result as PromiseRejectedResult).reason as unknown
        expect(reason).to.be.instanceOf(MongoServerError)
        expect((reason as MongoServerError).code).to.equal(2)
        expect((reason as MongoServerError).message).to.match(/^object to insert too large/)
      } else {
        expect(result.status).to.equal('fulfilled')
        expect(expectRight((result as PromiseFulfilledResult<E.Either<StoreError, InsertOutcome>>).value)._tag).to.equal('Inserted')
      }
    })
    expect(storedIds()).to.deep.equal(['1', '2', '4', '5'])
    expect(inserts.map(idsIn).sort()).to.deep.equal([['1', '2', '4', '5'], ['3']])
  })

  it('a document of exactly maxBsonObjectSize is stored with its batch-mates, as mongod stores it', async function () {
    this.timeout(20_000)
    const store = open(peer.uri, SLOW_TIMEOUTS)
    expectRight(await store.checkReady()())
    const sent = [plant(1n, 'Monstera'), withSize(2n, MAX_BSON_OBJECT_SIZE), plant(3n, 'Fern')]
    const outcomes = await createAll(store, sent)
    expect(outcomes.map((outcome) => expectRight(outcome)._tag)).to.deep.equal(['Inserted', 'Inserted', 'Inserted'])
    expect(storedIds()).to.deep.equal(['1', '2', '3'])
  })

  // How the request log describes a 500's cause (adapters/http/errors/describe-cause.ts).
  const describeCause = (cause: unknown): string =>
    inspect(cause, { depth: 4, breakLength: Infinity, maxStringLength: 4096, getters: false, customInspect: false })
  // Ids and names no other create of these tests uses, so that a log line naming them is found.
  const distinct = (count: number): NewPlant[] =>
    Array.from({ length: count }, (_, index) => plant(9_000_000_000_000_000_001n + BigInt(index), `Batch-mate-${index + 1}`))
  const namesAnotherPlant = (described: string, sent: ReadonlyArray<NewPlant>, own: number): boolean =>
    sent.some(({ id, name }, index) => index !== own && (described.includes(String(id)) || described.includes(name)))

  it('a server error on the whole batch: each create fails with what a lone insert would throw, naming no other create\'s plant', async function () {
    const store = open()
    expectRight(await store.checkReady()())
    peer.faults.inject('insert', serverError(2, 'BadValue', 'the insert command is refused'), 1)
    const sent = distinct(5)
    const settled = await Promise.allSettled(sent.map((each) => store.insertUnlessExists(each)()))
    expect(inserts.map((command) => command.length)).to.deep.equal([5])
    settled.forEach((result, index) => {
      expect(result.status).to.equal('rejected')
      const reason = (result as PromiseRejectedResult).reason as unknown
      expect(reason).to.be.instanceOf(MongoServerError).and.not.be.instanceOf(MongoBulkWriteError)
      expect(reason).to.include({ code: 2, codeName: 'BadValue', message: 'the insert command is refused' })
      // What the request's 500 logs of it.
      expect(namesAnotherPlant(describeCause(reason), sent, index), describeCause(reason)).to.equal(false)
    })
  })

  it('a batch interrupted part-way (killOp): every create StorageUnavailable with the lone error, and a client retry is a replay for the plants applied', async function () {
    const store = open()
    expectRight(await store.checkReady()())
    peer.faults.inject('insert', interruptedInsert(2, 11601), 1)
    const sent = distinct(5)
    const first = await createAll(store, sent)
    expect(inserts.map((command) => command.length), 'not retried by the driver').to.deep.equal([5])
    first.forEach((outcome, index) => {
      const refused = E.isLeft(outcome) ? outcome.left : undefined
      expect(refused?._tag).to.equal('StorageUnavailable')
      const cause = refused?._tag === 'StorageUnavailable' ? refused.cause : undefined
      expect(cause).to.be.instanceOf(MongoServerError).and.not.be.instanceOf(MongoBulkWriteError)
      expect(cause).to.include({ code: 11601 })
      expect(namesAnotherPlant(describeCause(cause), sent, index), describeCause(cause)).to.equal(false)
    })
    expect(storedIds()).to.have.length(2)
    const retried = await createAll(store, sent)
    expect(retried.map((outcome) => expectRight(outcome))).to.deep.equal(
      sent.map((each, index) => (index < 2 ? { _tag: 'AlreadyStored', stored: each } : { _tag: 'Inserted', plant: each })),
    )
  })

  it('a batch interrupted part-way by a step-down: the driver retries it, the plants applied before are not conflicts, each is stored once', async function () {
    const store = open()
    expectRight(await store.checkReady()())
    peer.faults.inject('insert', interruptedInsert(3, 11602), 1)
    const sent = plants(6)
    const outcomes = await createAll(store, sent)
    expect(inserts.map((command) => command.length)).to.deep.equal([6, 6])
    expect(outcomes.map((outcome) => expectRight(outcome))).to.deep.equal(sent.map((each) => ({ _tag: 'Inserted', plant: each })))
    expect(storedIds()).to.have.length(6)
  })

  // The driver backs off before retrying an overloaded server for a random share of
  // min(10 s, baseBackoffMS × 2^attempt), sleeping without the call's signal. The share is fixed
  // near its top here, so that the back-off outlasts the deadline on every run.
  it('an overloaded server whose back-off outlasts the deadline: each create 503 at its deadline, its place given up then, and nothing sent after the 503', async function () {
    this.timeout(10_000)
    const deadlineMs = 500
    // A pool of two: two inserts on the wire, so that a third create finds a place only where one
    // is given up (with room in the pool it would go in an insert of its own).
    const storage = openStore(`${peer.uri}&maxPoolSize=2`, dbName, { ...TEST_TIMEOUTS, operationMs: deadlineMs })
    opened.push(storage)
    const { store } = storage
    expectRight(await store.checkReady()())
    const random = Math.random
    Math.random = () => 0.99
    try {
      peer.faults.inject('insert', overloaded(1000))
      // Two creates a turn apart: the two places on the wire.
      const first = timed(() => store.insertUnlessExists(plant(1n, 'Monstera'))())
      await nextTurn()
      const second = timed(() => store.insertUnlessExists(plant(2n, 'Fern'))())
      for (const { result, ms } of await Promise.all([first, second])) {
        expect(E.isLeft(result) && result.left._tag).to.equal('StorageUnavailable')
        expect(ms).to.be.below(deadlineMs + 500)
      }
      const answeredAt = performance.now()
      expect(inserts.map(idsIn), 'each sent once, then backing off').to.deep.equal([['1'], ['2']])
      peer.faults.clear()
      // Both back-offs (about 2 s) are still running: a create now finds a place at once.
      const { result: third, ms } = await timed(() => store.insertUnlessExists(plant(3n, 'Ivy'))())
      expect(expectRight(third)).to.deep.equal({ _tag: 'Inserted', plant: plant(3n, 'Ivy') })
      expect(ms).to.be.below(deadlineMs)
      // Once the back-offs have ended the driver finds the signal aborted and sends nothing.
      await sleep(2500 - (performance.now() - answeredAt))
      expect(inserts.map(idsIn)).to.deep.equal([['1'], ['2'], ['3']])
      expect(storedIds()).to.deep.equal(['3'])
    } finally {
      Math.random = random
    }
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
