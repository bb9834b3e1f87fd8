import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import type { NewPlant } from '../../../../core/index.js'
import { plant } from '../../../support/plants.js'
import { createYardstickMs, freshDbName, openStore, steadily, TEST_TIMEOUTS, useWirePeer } from '../../../support/mongodb/support.js'
import { deadlineBeside, inRunsWithRoom } from '../../../support/yardstick.js'

// The commonest slowness of a replica set: the primary applies a write at once, and a majority
// has it only later. A majority that comes before the deadline is a 200 (Inserted), for creates
// that share inserts and for a create alone; one that comes after it is a 503 for a plant that is
// stored, answered by MongoDB itself (a write concern error), so the connection stays in the pool
// (slow-writes.suite.ts). The deadline is the tests' own, sized to what a create takes this machine
// under the same load (the yardstick), so the majority's share of it leaves the machine its time.
describe('a slow majority (wire peer)', function () {
  this.timeout(30_000)
  const DEADLINE_MS = TEST_TIMEOUTS.operationMs
  const wire = useWirePeer('slow_majority')

  const plants = (count: number, from = 1): NewPlant[] =>
    Array.from({ length: count }, (_, index) => plant(BigInt(from + index), `Majority ${from + index}`))
  const tagOf = (outcome: Awaited<ReturnType<ReturnType<ReturnType<typeof openStore>['store']['insertUnlessExists']>>>): string =>
    E.isRight(outcome) ? outcome.right._tag : outcome.left._tag

  // Creates arriving every 15 ms, sharing inserts where they come in the same turn.
  const steadilyTags = (store: ReturnType<typeof openStore>['store'], sent: ReadonlyArray<NewPlant>): Promise<string[]> =>
    steadily(sent, 15, async (each) => tagOf(await store.insertUnlessExists(each)()))

  // A store, on a database of its own, whose deadline leaves the machine, past the majority's
  // share, ten of its slowest creates. The test's own time grows with the deadline. Its pool holds the
  // creates arriving during one majority wait, as one insertOne per create would need: on a busy
  // machine the deadline grows past what the default pool of 100 holds, and creates beyond the
  // pool wait for a connection (small-pool.test.ts has that case).
  // A run is judged only where this process was never held up for longer than half of what the
  // majority leaves of the deadline (inRunsWithRoom).
  const inRuns = (test: Mocha.Context, share: number, count: number, run: (store: ReturnType<typeof openStore>['store'], stored: () => number) => Promise<void>) => {
    let roomMs = Infinity
    test.timeout(120_000)
    return inRunsWithRoom(test, () => roomMs, async () => {
      wire.peer.faults.clear()
      const deadlineMs = deadlineBeside(DEADLINE_MS, share, await createYardstickMs(wire.peer.uri, count, 15), 10)
      roomMs = ((1 - share) * deadlineMs) / 2
      const maxPoolSize = Math.max(100, Math.ceil((share * deadlineMs) / 15) + 10)
      const dbName = freshDbName('slow_majority')
      const { store } = wire.closeAfter(openStore(`${wire.peer.uri}&maxPoolSize=${maxPoolSize}`, dbName, { ...TEST_TIMEOUTS, operationMs: deadlineMs }))
      expect(E.isRight(await store.checkReady()()), 'ready').to.equal(true)
      wire.peer.faults.inject('insert', { kind: 'replicationLag', ms: share * deadlineMs })
      await run(store, () => wire.peer.documents(`${dbName}.plants`).length)
    })
  }

  for (const share of [0.4, 0.6, 0.9]) {
    it(`a majority ${share} of the deadline late: 150 steady creates, sharing inserts, are each stored and answered Inserted`, async function () {
      await inRuns(this, share, 30, async (store, storedCount) => {
        const answered = await steadilyTags(store, plants(150))
        expect(answered.filter((tag) => tag !== 'Inserted'), 'creates not answered Inserted').to.deep.equal([])
        expect(storedCount()).to.equal(150)
      })
    })

    it(`a majority ${share} of the deadline late: creates one at a time, each an insert of its own, are answered Inserted`, async function () {
      await inRuns(this, share, 3, async (store, storedCount) => {
        const answered: string[] = []
        for (const each of plants(3)) answered.push(tagOf(await store.insertUnlessExists(each)()))
        expect(answered).to.deep.equal(['Inserted', 'Inserted', 'Inserted'])
        expect(storedCount()).to.equal(3)
      })
    })
  }
})
