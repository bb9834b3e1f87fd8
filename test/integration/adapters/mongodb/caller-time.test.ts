import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { startMongoPeer, type MongoPeer } from '../../../support/mongo-peer/server.js'
import { plant } from '../../../support/plants.js'
import { freshDbName, openStore } from '../../../support/mongodb/support.js'

// A caller with less time left than the operation deadline (a request whose body took a while)
// tells storage so: the call is bounded by what the caller has left, and a caller with none left
// is answered before anything is sent.
describe('MongoDB within the time the caller has left (wire peer)', function () {
  this.timeout(20_000)
  let peer: MongoPeer
  let inserts: number
  beforeEach(async function () {
    inserts = 0
    peer = await startMongoPeer({ onCommand: (name) => (name === 'insert' ? (inserts += 1) : undefined) })
  })
  afterEach(async function () {
    await peer.stop()
  })

  const open = () =>
    openStore(peer.uri, freshDbName('caller-time'), { operationMs: 3_000, serverSelectionMs: 3_000, connectMs: 3_000, replaceClientAfterMs: 60_000 })

  it('answers StorageUnavailable within withinMs, not the operation deadline', async function () {
    const { store, close } = open()
    try {
      expect(E.isRight(await store.checkReady()()), 'ready').to.equal(true)
      peer.faults.inject('insert', { kind: 'delayReply', ms: 2_000 })
      const started = performance.now()
      const outcome = await store.insertUnlessExists(plant(1n, 'Fern'), { withinMs: 300 })()
      const took = performance.now() - started
      expect(E.isLeft(outcome) && outcome.left._tag).to.equal('StorageUnavailable')
      expect(took, 'ms to the answer').to.be.below(1_000)
    } finally {
      peer.faults.clear()
      await close()
    }
  })

  it('sends nothing for a caller with no time left', async function () {
    const { store, close } = open()
    try {
      expect(E.isRight(await store.checkReady()()), 'ready').to.equal(true)
      const outcome = await store.insertUnlessExists(plant(2n, 'Moss'), { withinMs: 0 })()
      expect(E.isLeft(outcome) && outcome.left._tag).to.equal('StorageUnavailable')
      expect(inserts).to.equal(0)
      const again = await store.insertUnlessExists(plant(2n, 'Moss'))()
      expect(E.isRight(again) && again.right._tag).to.equal('Inserted')
    } finally {
      await close()
    }
  })

  it('rejects the task, sending nothing, for a withinMs that is not a number: a defect, not an outage', async function () {
    const { store, close } = open()
    try {
      for (const withinMs of [Number.NaN, '300']) {
        const error: unknown = await store.insertUnlessExists(plant(3n, 'Ivy'), { withinMs: withinMs as number })().then(
          () => undefined,
          (rejection: unknown) => rejection,
        )
        expect(error, String(withinMs)).to.be.instanceOf(RangeError)
        expect((error as Error).message).to.match(/withinMs must be a number of milliseconds/)
      }
      expect(inserts).to.equal(0)
    } finally {
      await close()
    }
  })
})
