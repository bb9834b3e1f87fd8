import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { setTimeout as sleep } from 'node:timers/promises'
import { PEER_MONITORING_MODES, startMongoPeer, type MongoPeer } from '../../../support/mongo-peer/server.js'
import { sentByAnOperation } from '../../../support/mongo-peer/faults.js'
import { plant } from '../../../support/plants.js'
import { freshDbName, openStore } from '../../../support/mongodb/support.js'

// Replies delayed 2 s, a 500 ms deadline, 20 creates in four waves 100 ms
// apart, and a pool of one connection, so that creates queue for a batch, the pool
// allowing one insert on the wire. Every create is answered 503 by its deadline; no insert may
// reach MongoDB after the last of those answers, or a write answered 503 lands afterwards. A
// create whose deadline passed while it waited is never sent, and the call's abort signal is what
// stops a batch queued in the driver for a connection (the driver has no waitQueueTimeoutMS here):
// the second test holds the one connection with a slow readiness ping, which the adapter does not
// count among its inserts, so that the batch does wait in the driver.
for (const monitoring of PEER_MONITORING_MODES) describe(`MongoDB work bounded by the call deadline (wire peer, ${monitoring} monitoring)`, function () {
  this.timeout(20_000)
  let peer: MongoPeer
  let insertsAt: number[]
  let probes: number
  beforeEach(async function () {
    insertsAt = []
    probes = 0
    peer = await startMongoPeer({
      monitoring,
      onCommand: (name, command) =>
        name === 'insert' ? insertsAt.push(performance.now()) : name === 'hello' && sentByAnOperation(command) ? (probes += 1) : undefined,
    })
  })
  afterEach(async function () {
    await peer.stop()
  })

  it('sends no insert after the last 503, though calls queued for a batch', async function () {
    const deadlineMs = 500
    const { store, close } = openStore(`${peer.uri}&maxPoolSize=1`, freshDbName('deadline'), {
      operationMs: deadlineMs,
      serverSelectionMs: deadlineMs,
      connectMs: deadlineMs,
      replaceClientAfterMs: 60_000,
    })
    try {
      expect(E.isRight(await store.checkReady()()), 'ready before the fault').to.equal(true)
      peer.faults.inject('insert', { kind: 'delayReply', ms: 2000 })
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, async (_, index) => {
          await sleep(100 * Math.floor(index / 5))
          const outcome = await store.insertUnlessExists(plant(BigInt(index + 1), `plant ${index + 1}`))()
          return { outcome, at: performance.now() }
        }),
      )
      for (const { outcome } of outcomes) expect(E.isLeft(outcome) && outcome.left._tag).to.equal('StorageUnavailable')
      const lastAnswer = Math.max(...outcomes.map(({ at }) => at))
      await sleep(3000)
      // 50 ms for the peer to log what was sent as the deadline passed.
      const late = insertsAt.filter((at) => at > lastAnswer + 50)
      expect(late.map((at) => Math.round(at - lastAnswer)), 'ms after the last 503 that inserts arrived').to.deep.equal([])
    } finally {
      peer.faults.clear()
      await close()
    }
  })

  it('sends no insert after the 503s of a batch that waited in the driver for the one connection', async function () {
    const deadlineMs = 500
    let probed = false
    const { store, close } = openStore(`${peer.uri}&maxPoolSize=1`, freshDbName('deadline'), {
      operationMs: deadlineMs,
      serverSelectionMs: deadlineMs,
      connectMs: deadlineMs,
      replaceClientAfterMs: 60_000,
      readinessMs: 2 * deadlineMs,
    })
    try {
      expect(E.isRight(await store.checkReady()()), 'ready before the fault').to.equal(true)
      peer.faults.inject('hello', { kind: 'delayReply', ms: 2000 }, Infinity, sentByAnOperation)
      peer.faults.inject('insert', { kind: 'delayReply', ms: 2000 })
      // The probe's hello holds the pool's one connection until the probe gives up, after the creates' deadline.
      const probesBefore = probes
      const probe = store.checkReady()().finally(() => (probed = true))
      while (probes === probesBefore) await sleep(5)
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, async (_, index) => {
          const outcome = await store.insertUnlessExists(plant(BigInt(index + 1), `plant ${index + 1}`))()
          return { outcome, at: performance.now() }
        }),
      )
      for (const { outcome } of outcomes) expect(E.isLeft(outcome) && outcome.left._tag).to.equal('StorageUnavailable')
      const lastAnswer = Math.max(...outcomes.map(({ at }) => at))
      expect(probed, 'the connection still held when the creates were answered').to.equal(false)
      await probe
      await sleep(1000)
      const late = insertsAt.filter((at) => at > lastAnswer + 50)
      expect(late.map((at) => Math.round(at - lastAnswer)), 'ms after the last 503 that inserts arrived').to.deep.equal([])
    } finally {
      peer.faults.clear()
      await close()
    }
  })
})
