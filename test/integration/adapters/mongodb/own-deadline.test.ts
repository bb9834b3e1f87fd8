import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import type { InsertOptions, NewPlant, PlantStore } from '../../../../core/index.js'
import { plant } from '../../../support/plants.js'
import { startMongoPeer } from '../../../support/mongo-peer/server.js'
import { createYardstickMs, freshDbName, openStore, steadily, TEST_TIMEOUTS, useWirePeer } from '../../../support/mongodb/support.js'
import { deadlineBeside, inRunsWithRoom } from '../../../support/yardstick.js'

// Each create keeps its own deadline (docs/mongodb.md, "Creates that arrive together share one
// insert"): a create is answered by its own deadline at the latest, never 503 before it but for
// its own storage failure, and a shared insert lives until the latest deadline among its creates.
// Each deadline is the test's own, sized to what a create takes this machine under the same load
// (the yardstick), so that the slowness a test injects leaves the machine its time.
describe('every create keeps its own deadline (wire peer)', function () {
  this.timeout(60_000)
  const wire = useWirePeer('own_deadline')

  interface Answer {
    readonly id: bigint
    readonly tag: string
    /** ms from the call to its answer. */
    readonly tookMs: number
  }

  const create = async (store: PlantStore, each: NewPlant, options?: InsertOptions): Promise<Answer> => {
    const started = performance.now()
    const outcome = await store.insertUnlessExists(each, options)()
    return { id: each.id, tag: E.isRight(outcome) ? outcome.right._tag : outcome.left._tag, tookMs: performance.now() - started }
  }

  const plants = (count: number, from = 1): NewPlant[] =>
    Array.from({ length: count }, (_, index) => plant(BigInt(from + index), `Own ${from + index}`))

  const storeFor = async (test: Mocha.Context, share: number, uriOptions = '', headroom = 5) => {
    const deadlineMs = deadlineBeside(1000, share, await createYardstickMs(wire.peer.uri, 10, 15), headroom)
    test.timeout(20_000 + 6 * deadlineMs)
    const dbName = freshDbName('own_deadline')
    const { store } = wire.closeAfter(openStore(`${wire.peer.uri}${uriOptions}`, dbName, { ...TEST_TIMEOUTS, operationMs: deadlineMs }))
    expect(E.isRight(await store.checkReady()()), 'ready').to.equal(true)
    const storedIds = (): Set<string> => new Set(wire.peer.documents(`${dbName}.plants`).map(({ _id }) => String(_id)))
    return { store, deadlineMs, storedIds }
  }

  // A majority at the end of the deadline leaves a few hundredths of it to the machine: a run is
  // judged only where this process was never held up for longer than half of them (inRunsWithRoom).
  // A majority as late as the deadline leaves the one hundredth in which MongoDB's write concern
  // error is read before the deadline would cut the reply: sized as a share of 0.98, that hundredth.
  const inRunsNearTheDeadline = (test: Mocha.Context, share: number, run: (opened: Awaited<ReturnType<typeof storeFor>>) => Promise<void>) => {
    let roomMs = Infinity
    return inRunsWithRoom(test, () => roomMs, async () => {
      wire.peer.faults.clear()
      const opened = await storeFor(test, share, '', 3)
      test.timeout(120_000)
      roomMs = ((1 - share) * opened.deadlineMs) / 2
      await run(opened)
    })
  }

  it('a create with less time left waits with a full-deadline create for the busy connection: the full-deadline create is stored and Inserted, the other answered at its own deadline', async function () {
    // One connection, every majority 0.3 of the deadline late: a blocker holds the connection.
    const { store, deadlineMs } = await storeFor(this, 0.6, '&maxPoolSize=1')
    wire.peer.faults.inject('insert', { kind: 'replicationLag', ms: 0.3 * deadlineMs })
    const [blocker, full, short] = plants(3)
    const blocked = create(store, blocker as NewPlant)
    await new Promise((resolve) => setTimeout(resolve, 0.05 * deadlineMs))
    const [fullAnswer, shortAnswer] = await Promise.all([
      create(store, full as NewPlant),
      create(store, short as NewPlant, { withinMs: 0.4 * deadlineMs }),
    ])
    expect((await blocked).tag).to.equal('Inserted')
    expect(fullAnswer?.tag, 'the full-deadline create, not cut short by the other\'s deadline').to.equal('Inserted')
    expect(shortAnswer?.tag).to.equal('StorageUnavailable')
    expect(shortAnswer?.tookMs, 'the short create answered at its own deadline, not before').to.be.at.least(0.4 * deadlineMs - 1)
  })

  for (const share of [0.97]) {
    it(`a majority ${share} of the deadline late: creates alone and 20 together are each stored and Inserted`, async function () {
      await inRunsNearTheDeadline(this, share, async ({ store, deadlineMs, storedIds }) => {
        wire.peer.faults.inject('insert', { kind: 'replicationLag', ms: share * deadlineMs })
        // Alone: each in a turn of its own while a connection is free, so in an insert of its own.
        const [alone, together] = await Promise.all([
          steadily(plants(3), 0.01 * deadlineMs, (each) => create(store, each)),
          Promise.all(plants(20, 100).map((each) => create(store, each))),
        ])
        expect(alone.map(({ tag }) => tag), 'alone').to.deep.equal(['Inserted', 'Inserted', 'Inserted'])
        expect(together.filter(({ tag }) => tag !== 'Inserted'), 'together, not Inserted').to.deep.equal([])
        expect(storedIds().size).to.equal(23)
      })
    })
  }

  it('a majority as late as the deadline: each create 503, its plant stored, answered by MongoDB before the deadline cuts the reply', async function () {
    await inRunsNearTheDeadline(this, 0.98, async ({ store, deadlineMs, storedIds }) => {
      wire.peer.faults.inject('insert', { kind: 'replicationLag', ms: deadlineMs })
      const closedBefore = wire.peer.connectionsClosedByClients()
      const answers = await Promise.all(plants(20).map((each) => create(store, each)))
      expect(answers.map(({ tag }) => tag)).to.deep.equal(Array.from({ length: 20 }, () => 'StorageUnavailable'))
      expect(storedIds().size, 'stored').to.equal(20)
      expect(wire.peer.connectionsClosedByClients() - closedBefore, 'connections cut by the deadline').to.equal(0)
    })
  })

  for (const maxPoolSize of [1, 2]) {
    it(`maxPoolSize=${maxPoolSize}, answers at 0.9 of the deadline, 60 steady creates: a 503 only at a create's own deadline`, async function () {
      const { store, deadlineMs } = await storeFor(this, 0.9, `&maxPoolSize=${maxPoolSize}`)
      wire.peer.faults.inject('insert', { kind: 'delayReply', ms: 0.9 * deadlineMs })
      const answers = await steadily(plants(60), deadlineMs / 30, (each) => create(store, each))
      const early = answers.filter(({ tag, tookMs }) => tag !== 'Inserted' && tookMs < deadlineMs - 1)
      expect(early.map(({ id, tookMs }) => `${id}: ${Math.round(tookMs)} ms`), 'answered 503 before their deadline').to.deep.equal([])
      expect(answers.filter(({ tag }) => tag === 'Inserted').length, 'Inserted').to.be.above(0)
    })
  }

  it('a slow way in on a pool of one: no insert reaches MongoDB after its create\'s 503', async function () {
    const arrivals: Array<{ readonly at: number; readonly ids: ReadonlyArray<string> }> = []
    const peer = await startMongoPeer({
      onCommand: (name, command) => {
        const documents: unknown = command['documents']
        if (name === 'insert' && Array.isArray(documents)) {
          arrivals.push({ at: performance.now(), ids: documents.map((document: { readonly _id: unknown }) => String(document._id)) })
        }
      },
    })
    let closeStore = async (): Promise<void> => {}
    try {
      const deadlineMs = deadlineBeside(1000, 0.7, await createYardstickMs(peer.uri, 10, 15))
      this.timeout(20_000 + 6 * deadlineMs)
      const { store, close } = openStore(`${peer.uri}&maxPoolSize=1`, freshDbName('way_in'), { ...TEST_TIMEOUTS, operationMs: deadlineMs })
      closeStore = close
      expect(E.isRight(await store.checkReady()()), 'ready').to.equal(true)
      peer.faults.inject('insert', { kind: 'delayRequest', ms: 0.7 * deadlineMs })
      const answered = new Map<string, { readonly at: number; readonly tag: string }>()
      const record = async (each: NewPlant): Promise<void> => {
        const { tag } = await create(store, each)
        answered.set(String(each.id), { at: performance.now(), tag })
      }
      const first = record(plant(1n, 'First'))
      await new Promise((resolve) => setTimeout(resolve, 0.05 * deadlineMs))
      await Promise.all([first, ...plants(20, 2).map(record)])
      await new Promise((resolve) => setTimeout(resolve, 1.5 * deadlineMs))
      expect(answered.get('1')?.tag, 'the first create').to.equal('Inserted')
      // 50 ms for the peer to log what reached it as the deadline passed.
      const late = arrivals.flatMap(({ at, ids }) =>
        ids.filter((id) => {
          const answer = answered.get(id)
          return answer !== undefined && answer.tag !== 'Inserted' && at > answer.at + 50
        }),
      )
      expect(late, 'plants whose insert reached MongoDB after their 503').to.deep.equal([])
    } finally {
      await closeStore()
      await peer.stop()
    }
  })
})
