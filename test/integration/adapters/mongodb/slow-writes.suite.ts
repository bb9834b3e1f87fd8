import { expect } from 'chai'
import { setTimeout as sleep } from 'node:timers/promises'
import * as E from 'fp-ts/lib/Either.js'
import { MongoWriteConcernError } from 'mongodb'
import type { MongoPlantStore, MongoTimeouts } from '../../../../adapters/mongodb/index.js'
import type { InsertOutcome, PlantStore, StoreError } from '../../../../core/index.js'
import { expectRight } from '../../../support/either.js'
import type { PeerMonitoring } from '../../../support/mongo-peer/commands.js'
import { startMongoPeer, type MongoPeer } from '../../../support/mongo-peer/server.js'
import { plant } from '../../../support/plants.js'
import { createYardstickMs, freshDbName, openStore, steadily, TEST_TIMEOUTS } from '../../../support/mongodb/support.js'
import { deadlineBeside, inRunsWithRoom } from '../../../support/yardstick.js'

// A write whose majority takes longer than the deadline. MongoDB must answer it (a write concern
// error, the plant kept) before the call's deadline would cut the reply: a reply cut by the
// deadline costs its connection, which the driver destroys (in production a new TCP and TLS
// handshake and an authentication for the next call).
// Run once per monitoring mode, by a test file each (slow-writes-streaming.test.ts, slow-writes-polling.test.ts), so
// that a parallel run gives each mode a worker of its own.
export const slowWritesUnder = (monitoring: PeerMonitoring) => describe(`slow writes (wire peer, ${monitoring} monitoring)`, function () {
  this.timeout(30_000)
  let peer: MongoPeer
  let storage: MongoPlantStore | undefined
  let dbName: string
  const stored = () => peer.documents(`${dbName}.plants`)
  // MongoDB answers a write concern it cannot meet at 99/100 of the time the insert has left
  // (writeConcernTimeoutWithin, held to it by write-concern-on-the-wire.test.ts), so the reply has
  // the last hundredth to be read before the deadline would cut it (and cost the connection). The
  // deadline is the test's written one, or longer where the machine needs it: that hundredth at
  // least three creates of this machine under its load now (the yardstick: the slowest of 20
  // steady creates, so that it sees the load's peaks, which this bound is about). A run is judged
  // only where this process was never held up for longer than that hundredth (inRunsWithRoom).
  // A majority comes a second after the deadline, or never within it.
  let yardstick: number
  let roomMs = Infinity
  const deadlineFrom = (writtenMs: number, headroom = 3): { readonly deadlineMs: number; readonly lagMs: number } => {
    const deadlineMs = deadlineBeside(writtenMs, 99 / 100, yardstick, headroom)
    roomMs = deadlineMs / 100
    return { deadlineMs, lagMs: deadlineMs + 1000 }
  }
  const inRuns = (test: Mocha.Context, run: () => Promise<void>): Promise<void> =>
    inRunsWithRoom(test, () => roomMs, async () => {
      await storage?.close()
      storage = undefined
      peer.faults.clear()
      dbName = freshDbName('slow')
      yardstick = await createYardstickMs(peer.uri, 20, 15)
      await run()
    })

  beforeEach(async function () {
    peer = await startMongoPeer({ monitoring })
  })
  afterEach(async function () {
    await storage?.close()
    storage = undefined
    await peer.stop()
  })

  // One create first, and a pool that holds `connections` before the writes are slow: the hundredth
  // a reply has is the room this suite judges, and a connection the driver opened inside it (a
  // handshake of several turns of the event loop, each maybe held up a little on a busy machine)
  // would take that room from the reply, though no single hold-up was longer than it.
  const openWarm = async (connections: number, timeouts: MongoTimeouts = TEST_TIMEOUTS, uri = peer.uri): Promise<PlantStore> => {
    const { store } = (storage = openStore(`${uri}&minPoolSize=${connections}`, dbName, timeouts))
    expect(expectRight(await store.insertUnlessExists(plant(100n, 'Warm-up'))())._tag).to.equal('Inserted')
    // The driver opens the pool's connections in the background, one a check (every 100 ms); the
    // pool is full once the peer's count, the monitor's among them, stops growing above it.
    let open = peer.openConnections()
    for (let polls = 0, steady = 0; steady < 3 || open <= connections; polls += 1) {
      if (polls === 100) expect.fail(`the pool did not fill to ${connections} connections: the peer has ${open} open`)
      await sleep(100)
      const now = peer.openConnections()
      steady = now === open ? steady + 1 : 0
      open = now
    }
    return store
  }

  // The 503 the server caused: a write concern error, not the call's deadline.
  const expectAnsweredByServer = (answer: E.Either<StoreError, InsertOutcome>, what: string): void => {
    if (E.isRight(answer)) expect.fail(`${what}: expected StorageUnavailable, got ${answer.right._tag}`)
    expect(answer.left._tag, what).to.equal('StorageUnavailable')
    expect(answer.left._tag === 'StorageUnavailable' ? answer.left.cause : undefined, what).to.be.instanceOf(MongoWriteConcernError)
  }

  it('each is answered 503 with its plant kept, on the connection it came on, and its retry is a replay', async function () {
    this.timeout(180_000)
    await inRuns(this, async () => {
      const { deadlineMs, lagMs } = deadlineFrom(TEST_TIMEOUTS.operationMs)
      const store = await openWarm(8, { ...TEST_TIMEOUTS, operationMs: deadlineMs })
      const before = peer.connectionsClosedByClients()
      peer.faults.inject('insert', { kind: 'replicationLag', ms: lagMs }, 8)
      // Eight creates 20 ms apart: each an insert of its own, on a connection of its own.
      const sent = Array.from({ length: 8 }, (_, index) => plant(BigInt(index + 1), `Slow ${index + 1}`))
      const answers = await steadily(sent, 20, (each) => store.insertUnlessExists(each)())
      expect(peer.connectionsClosedByClients() - before, 'connections given up for 8 slow writes').to.equal(0)
      answers.forEach((answer, index) => expectAnsweredByServer(answer, `create ${index + 1}`))
      expect(stored().map(({ _id }) => BigInt(String(_id))).sort((a, b) => (a < b ? -1 : 1))).to.deep.equal([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 100n])
      // The waits for a majority took longer than the lag: a majority has the first plant now,
      // and sending its create again is answered with it.
      expect(expectRight(await store.insertUnlessExists(plant(1n, 'Slow 1'))())).to.deep.equal({
        _tag: 'AlreadyStored',
        stored: plant(1n, 'Slow 1'),
      })
    })
  })

  it('a create that waits behind two slow inserts on the wire is answered 503 by its own deadline, the two on the wire by the server', async function () {
    // The pool of two carries the first two creates of each round; the third waits for a
    // connection, which frees only when a write-concern error comes back, near the first create's
    // deadline. What is left of the third's deadline is then a few hundredths: it is answered 503
    // by its own deadline (docs/mongodb.md, rule 1), by the server's error or by the deadline, and
    // at most its own connection is given up. The two on the wire are answered by the server.
    this.timeout(180_000)
    await inRuns(this, async () => {
      const { deadlineMs, lagMs } = deadlineFrom(2500)
      const store = await openWarm(2, { ...TEST_TIMEOUTS, operationMs: deadlineMs }, `${peer.uri}&maxPoolSize=2`)
      const before = peer.connectionsClosedByClients()
      peer.faults.inject('insert', { kind: 'replicationLag', ms: lagMs }, 6)
      const answers: Array<E.Either<StoreError, InsertOutcome>> = []
      for (let round = 0n; round < 2n; round += 1n) {
        const creates: Array<Promise<E.Either<StoreError, InsertOutcome>>> = []
        for (let member = 1n; member <= 3n; member += 1n) {
          creates.push(store.insertUnlessExists(plant(10n * round + member, 'Slow'))())
          await sleep(20)
        }
        answers.push(...(await Promise.all(creates)))
      }
      expect(peer.connectionsClosedByClients() - before, 'connections given up: at most the two waiting creates\' own').to.be.at.most(2)
      answers.forEach((answer, index) => {
        if (index % 3 !== 2) expectAnsweredByServer(answer, `create ${index + 1}`)
        else expect(E.isLeft(answer) ? answer.left._tag : answer.right._tag, `create ${index + 1}`).to.equal('StorageUnavailable')
      })
      const ids = new Set(stored().map(({ _id }) => String(_id)))
      for (const id of ['1', '2', '11', '12']) expect(ids.has(id), `plant ${id}, answered by the server, is stored`).to.equal(true)
    })
  })
})

