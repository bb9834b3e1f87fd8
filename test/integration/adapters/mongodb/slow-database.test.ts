import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import type { Abortable, InsertOneOptions } from 'mongodb'
import type { MongoPlantStore } from '../../../../adapters/mongodb/index.js'
import type { NewPlant } from '../../../../core/index.js'
import { startMongoPeer, type MongoPeer } from '../../../support/mongo-peer/server.js'
import { plant } from '../../../support/plants.js'
import { createYardstickMs, freshDbName, openStore, steadily, TEST_TIMEOUTS, withRawClient } from '../../../support/mongodb/support.js'
import { deadlineBeside } from '../../../support/yardstick.js'

// A database slow but healthy: every insert is answered in 0.6 of the deadline, while creates
// arrive steadily for a few seconds. One insertOne per create answers every one of them in time;
// so must the adapter, whose creates share inserts. The deadline is the tests' own, sized to what a
// create takes this machine under the same load before the fault (createYardstickMs).
describe('a database slow but healthy (wire peer)', function () {
  this.timeout(30_000)
  const ANSWER_SHARE = 0.6
  // About 60 inserts on the wire at once for one insertOne per create: fewer than the driver's
  // pool holds (100), so none of them waits for a connection. That is 15 ms apart at the written
  // deadline; a longer deadline spaces the creates in proportion, so as many are on the wire.
  const EVERY_MS = 15
  let everyMs: number
  const CREATES = 200
  // The yardstick's window, about a second of the same pace, and what the fault leaves of the
  // deadline in yardsticks: ten, as the load of a busy machine moves within the test's 3 s, while
  // a yardstick of one moment sees only that moment.
  const YARDSTICK_CREATES = 60
  const HEADROOM = 10
  let peer: MongoPeer
  let dbName: string
  let storage: MongoPlantStore | undefined

  let deadlineMs: number
  beforeEach(async function () {
    peer = await startMongoPeer()
    dbName = freshDbName('slow_database')
    deadlineMs = deadlineBeside(TEST_TIMEOUTS.operationMs, ANSWER_SHARE, await createYardstickMs(peer.uri, YARDSTICK_CREATES, EVERY_MS), HEADROOM)
    everyMs = (EVERY_MS * deadlineMs) / TEST_TIMEOUTS.operationMs
    this.timeout(10_000 + 3 * deadlineMs + CREATES * everyMs)
  })
  afterEach(async function () {
    await storage?.close()
    storage = undefined
    peer.faults.clear()
    await peer.stop()
  })

  const plants = (): NewPlant[] => Array.from({ length: CREATES }, (_, index) => plant(BigInt(index + 1), `Steady ${index + 1}`))
  const storedIds = (): string[] => peer.documents(`${dbName}.plants`).map(({ _id }) => String(_id))

  it('every create is stored and answered Inserted, as with one insertOne per create', async function () {
    this.timeout(10_000 + 3 * deadlineMs + CREATES * everyMs)
    storage = openStore(peer.uri, dbName, { ...TEST_TIMEOUTS, operationMs: deadlineMs })
    const { store } = storage
    expect(E.isRight(await store.checkReady()()), 'ready').to.equal(true)
    peer.faults.inject('insert', { kind: 'delayReply', ms: ANSWER_SHARE * deadlineMs })
    const sent = plants()
    const outcomes = await steadily(sent, everyMs, (each) => store.insertUnlessExists(each)())
    const answered = outcomes.map((outcome) => (E.isRight(outcome) ? outcome.right._tag : outcome.left._tag))
    expect(answered.filter((tag) => tag !== 'Inserted'), 'creates not answered Inserted').to.deep.equal([])
    expect(outcomes.map((outcome) => E.isRight(outcome) && outcome.right)).to.deep.equal(sent.map((each) => ({ _tag: 'Inserted', plant: each })))
    expect(storedIds()).to.have.length(CREATES)
  })

  // The yardstick: the same load through the driver alone, one insertOne per create, each under
  // its own deadline, as the reference in bench/ sends it. Were it to fail here, the machine and
  // not the adapter would be what the test above measures.
  it('one insertOne per create, the yardstick, answers every one in time', async function () {
    this.timeout(10_000 + 3 * deadlineMs + CREATES * everyMs)
    peer.faults.inject('insert', { kind: 'delayReply', ms: ANSWER_SHARE * deadlineMs })
    const sent = plants()
    // The driver reads the signal for every operation, though its types declare it on reads only.
    const lone = (): InsertOneOptions & Abortable => ({ signal: AbortSignal.timeout(deadlineMs), writeConcern: { w: 'majority', journal: true } })
    const outcomes = await withRawClient(peer.uri, async (client) => {
      const collection = client.db(dbName).collection<{ _id: bigint; name: string }>('plants')
      await client.db(dbName).command({ ping: 1 })
      return steadily(sent, everyMs, ({ id, name }) =>
        collection.insertOne({ _id: id, name }, lone()).then(
          () => 'inserted',
          (error: unknown) => String(error),
        ),
      )
    })
    expect(outcomes.filter((outcome) => outcome !== 'inserted')).to.deep.equal([])
    expect(storedIds()).to.have.length(CREATES)
  })
})
