import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import type { NewPlant } from '../../../../core/index.js'
import { plant } from '../../../support/plants.js'
import { createYardstickMs, freshDbName, openStore, steadily, TEST_TIMEOUTS, useWirePeer } from '../../../support/mongodb/support.js'
import { deadlineBeside, inRunsWithRoom } from '../../../support/yardstick.js'

// A pool smaller than the load needs: with every connection carrying an insert, one comes back
// every answer time / maxPoolSize, and the insert it frees must carry every create that waited
// meanwhile, or the queue grows until creates wait out their deadlines. A create waits for a
// connection at most one answer time (when the pool's inserts left together), and is carried when
// it has as much time left as an insert takes (docs/mongodb.md): answers in 0.3 of the deadline
// leave each create 0.4 of it beyond that, sized to what a create takes this machine under the same
// load (the yardstick), and every create is answered Inserted. A run is judged only where this
// process was never held up for longer than half of that room (inRunsWithRoom).
describe('a pool smaller than the load (wire peer)', function () {
  this.timeout(30_000)
  const DEADLINE_MS = TEST_TIMEOUTS.operationMs
  const ANSWER_SHARE = 0.3
  const EVERY_MS = 10
  const CREATES = 200
  const wire = useWirePeer('small_pool')

  const plants = (): NewPlant[] => Array.from({ length: CREATES }, (_, index) => plant(BigInt(index + 1), `Pooled ${index + 1}`))

  for (const maxPoolSize of [2, 4, 10]) {
    it(`maxPoolSize=${maxPoolSize}, inserts answered in ${ANSWER_SHARE} of the deadline, a create every ${EVERY_MS} ms: each is answered Inserted`, async function () {
      this.timeout(120_000)
      let roomMs = Infinity
      await inRunsWithRoom(this, () => roomMs, async () => {
        wire.peer.faults.clear()
        const deadlineMs = deadlineBeside(DEADLINE_MS, 2 * ANSWER_SHARE, await createYardstickMs(wire.peer.uri, 30, EVERY_MS))
        roomMs = ((1 - 2 * ANSWER_SHARE) * deadlineMs) / 2
        const dbName = freshDbName('small_pool')
        const { store } = wire.closeAfter(openStore(`${wire.peer.uri}&maxPoolSize=${maxPoolSize}`, dbName, { ...TEST_TIMEOUTS, operationMs: deadlineMs }))
        expect(E.isRight(await store.checkReady()()), 'ready').to.equal(true)
        wire.peer.faults.inject('insert', { kind: 'delayReply', ms: ANSWER_SHARE * deadlineMs })
        const answered = await steadily(plants(), EVERY_MS, async (each) => {
          const outcome = await store.insertUnlessExists(each)()
          return { id: String(each.id), tag: E.isRight(outcome) ? outcome.right._tag : outcome.left._tag }
        })
        const stored = new Set(wire.peer.documents(`${dbName}.plants`).map(({ _id }) => String(_id)))
        const answered503ThoughStored = answered.filter(({ id, tag }) => tag !== 'Inserted' && stored.has(id))
        expect(answered503ThoughStored.length, 'creates answered 503 though stored').to.equal(0)
        expect(answered.filter(({ tag }) => tag !== 'Inserted').length, 'creates not answered Inserted').to.equal(0)
        expect(stored.size).to.equal(CREATES)
      })
    })
  }
})
