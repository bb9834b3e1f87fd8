import { expect } from 'chai'
import { setTimeout as sleep } from 'node:timers/promises'
import { Long } from 'bson'
import * as E from 'fp-ts/lib/Either.js'
import { openMongoPlantStore } from '../../../../adapters/mongodb/index.js'
import type { PlantStore } from '../../../../core/index.js'
import { expectLeftTag, expectRight } from '../../../support/either.js'
import {
  notWritablePrimary,
  sentByAnOperation,
  serverError,
  shutdownDuringWriteConcern,
  writeConcernTimedOut,
} from '../../../support/mongo-peer/faults.js'
import type { PeerMonitoring } from '../../../support/mongo-peer/commands.js'
import { TRANSIENT_SERVER_CODES } from '../../../support/mongodb/transient-codes.js'
import { plant } from '../../../support/plants.js'
import { answerBoundMs, eventuallyRight, openStore, TEST_TIMEOUTS, timed, useCreateYardstick, useWirePeer, withRawClient } from '../../../support/mongodb/support.js'

// Generous room over the deadline for a loaded machine: the check is that the answer is bounded
// by the deadline rather than by a driver default (30 s) or never.

// Run once per monitoring mode, by a test file each (faults-streaming.test.ts, faults-polling.test.ts), so
// that a parallel run gives each mode a worker of its own.
export const faultsUnder = (monitoring: PeerMonitoring) => describe(`MongoDB adapter under faults (wire peer, ${monitoring} monitoring)`, function () {
  const yardstick = useCreateYardstick()
  const wire = useWirePeer('faults', monitoring)
  const open = (): PlantStore => wire.closeAfter(openStore(wire.peer.uri, wire.dbName)).store
  const stored = wire.stored

  describe('MongoDB down', function () {
    it('opens at once while MongoDB is down, and becomes ready when it comes up', async function () {
      await wire.peer.goDown()
      const store = open()
      const { result: notReady, ms } = await timed(() => store.checkReady()())
      expectLeftTag(notReady, 'StorageUnavailable')
      expect(ms).to.be.below(answerBoundMs(TEST_TIMEOUTS.operationMs, yardstick()))
      await wire.peer.comeBack()
      await eventuallyRight(() => store.checkReady()(), 5000)
      const outcome = expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
      expect(outcome._tag).to.equal('Inserted')
    })

    it('answers StorageUnavailable within the deadline while down, and stores again once back', async function () {
      const store = open()
      expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
      await wire.peer.goDown()
      const { result, ms } = await timed(() => store.insertUnlessExists(plant(2n, 'Fern'))())
      expectLeftTag(result, 'StorageUnavailable')
      expect(ms).to.be.below(answerBoundMs(TEST_TIMEOUTS.operationMs, yardstick()))
      await wire.peer.comeBack()
      const outcome = await eventuallyRight(() => store.insertUnlessExists(plant(2n, 'Fern'))(), 5000)
      expect(outcome).to.deep.equal({ _tag: 'Inserted', plant: plant(2n, 'Fern') })
      expect(stored()).to.have.length(2)
    })
  })

  describe('MongoDB restarting, or cut off', function () {
    it('a restart (a new process, secondary for a moment, then primary in the next term): no 500, and the create stored once', async function () {
      const store = open()
      expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
      await wire.peer.restart(500)
      // During the secondary phase the driver waits for a primary, or the deadline answers 503.
      const { result, ms } = await timed(() => store.insertUnlessExists(plant(2n, 'Fern'))())
      expect(ms).to.be.below(answerBoundMs(TEST_TIMEOUTS.operationMs, yardstick()))
      if (E.isLeft(result)) expectLeftTag(result, 'StorageUnavailable')
      const outcome = await eventuallyRight(() => store.insertUnlessExists(plant(2n, 'Fern'))(), 5000)
      expect(['Inserted', 'AlreadyStored']).to.include(outcome._tag)
      await eventuallyRight(() => store.checkReady()(), 5000)
      expect(stored()).to.have.length(2)
    })

    it('a quiet network (connections open, nothing answers): StorageUnavailable within the deadline, then the create is a replay once it speaks', async function () {
      this.timeout(30_000)
      const store = open()
      expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
      wire.peer.goQuiet()
      const { result, ms } = await timed(() => store.insertUnlessExists(plant(2n, 'Fern'))())
      expectLeftTag(result, 'StorageUnavailable')
      expect(ms).to.be.below(answerBoundMs(TEST_TIMEOUTS.operationMs, yardstick()))
      expectLeftTag(await store.checkReady()(), 'StorageUnavailable')
      wire.peer.endQuiet()
      // The insert sent into the partition reaches the server when it heals, as mongod would
      // receive it, and is applied though its client has given up: the create sent again reads it
      // back (or, had it come first, stores it), the same plant either way.
      const outcome = await eventuallyRight(() => store.insertUnlessExists(plant(2n, 'Fern'))(), 15_000)
      expect([
        { _tag: 'AlreadyStored', stored: plant(2n, 'Fern') },
        { _tag: 'Inserted', plant: plant(2n, 'Fern') },
      ]).to.deep.include(outcome)
      await eventuallyRight(() => store.checkReady()(), 5000)
      expect(stored()).to.have.length(2)
    })

    it('an insert sent into a partition lands when it heals, after its 503 and with no retry: the same create is then a replay, another plant a conflict', async function () {
      this.timeout(30_000)
      const store = open()
      expectRight(await store.checkReady()())
      wire.peer.goQuiet()
      expectLeftTag(await store.insertUnlessExists(plant(1n, 'Monstera'))(), 'StorageUnavailable')
      expect(stored()).to.have.length(0)
      await sleep(200)
      wire.peer.endQuiet()
      await eventually(() => stored().length === 1, 5000)
      expect(stored()).to.deep.equal([{ _id: expectLong(1n), name: 'Monstera' }])
      const again = await eventuallyRight(() => store.insertUnlessExists(plant(1n, 'Monstera'))(), 15_000)
      expect(again).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(1n, 'Monstera') })
      expect(expectRight(await store.insertUnlessExists(plant(1n, 'Fern'))())).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(1n, 'Monstera') })
    })
  })

  describe('a client the driver cannot bring back by itself', function () {
    // A replica set initiated anew reports election term 1; a client that saw term 2 takes its
    // primary for a stale one and never selects it again (the server discovery specification's
    // rule), so only a fresh client can use it: a wedge like the one flapping once left.
    it('is replaced after replaceClientAfterMs of unavailability; readiness says so throughout', async function () {
      this.timeout(30_000)
      wire.peer.setElectionTerm(2)
      const store = open()
      expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
      await wire.peer.goDown()
      wire.peer.setElectionTerm(1)
      await wire.peer.comeBack()
      expectLeftTag(await store.checkReady()(), 'StorageUnavailable')
      const since = performance.now()
      await eventuallyRight(() => store.checkReady()(), TEST_TIMEOUTS.replaceClientAfterMs + 2 * TEST_TIMEOUTS.operationMs + 3000)
      expect(performance.now() - since).to.be.at.least(TEST_TIMEOUTS.replaceClientAfterMs - 2 * TEST_TIMEOUTS.operationMs)
      expect(expectRight(await store.insertUnlessExists(plant(2n, 'Fern'))())._tag).to.equal('Inserted')
      expect(stored()).to.have.length(2)
    })

    it('answers a call in flight on the old client before closing it', async function () {
      this.timeout(30_000)
      const store = open()
      expectRight(await store.checkReady()())
      // Readiness probes find no primary, call after call, almost long enough...
      wire.peer.faults.inject('hello', notWritablePrimary(), Infinity, sentByAnOperation)
      const streak = performance.now()
      while (performance.now() - streak < TEST_TIMEOUTS.replaceClientAfterMs - 300) {
        expectLeftTag(await store.checkReady()(), 'StorageUnavailable')
        await sleep(100)
      }
      // ...then an insert starts on the client, and the probes go on past the bound while it runs.
      wire.peer.faults.inject('insert', { kind: 'delayReply', ms: 900 }, 1)
      const inFlight = store.insertUnlessExists(plant(1n, 'Monstera'))()
      for (let probe = 0; probe < 6; probe += 1) {
        expectLeftTag(await store.checkReady()(), 'StorageUnavailable')
        await sleep(100)
      }
      expect(expectRight(await inFlight)._tag).to.equal('Inserted')
      wire.peer.faults.clear()
      expectRight(await store.checkReady()())
      expect(expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())._tag).to.equal('AlreadyStored')
    })
  })

  describe('MongoDB slow', function () {
    it('answers StorageUnavailable within the deadline when the reply comes too late, and recovers', async function () {
      const store = open()
      wire.peer.faults.inject('insert', { kind: 'delayReply', ms: 5000 })
      const { result, ms } = await timed(() => store.insertUnlessExists(plant(1n, 'Monstera', 'aroid'))())
      expectLeftTag(result, 'StorageUnavailable')
      expect(ms).to.be.below(answerBoundMs(TEST_TIMEOUTS.operationMs, yardstick()))
      wire.peer.faults.clear()
      // The slow insert was applied: asking again is a replay, not a second plant.
      const again = expectRight(await store.insertUnlessExists(plant(1n, 'Monstera', 'aroid'))())
      expect(again).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(1n, 'Monstera', 'aroid') })
      expect(stored()).to.have.length(1)
    })

    it('answers StorageUnavailable within the deadline when a readiness probe hangs', async function () {
      const store = open()
      expectRight(await store.checkReady()())
      wire.peer.faults.inject('hello', { kind: 'delayReply', ms: 5000 }, Infinity, sentByAnOperation)
      const { result, ms } = await timed(() => store.checkReady()())
      expectLeftTag(result, 'StorageUnavailable')
      expect(ms).to.be.below(answerBoundMs(TEST_TIMEOUTS.operationMs, yardstick()))
    })

    it('an insert slow on its way in lands after its 503, and the same create again is a replay', async function () {
      const store = open()
      expectRight(await store.checkReady()())
      wire.peer.faults.inject('insert', { kind: 'delayRequest', ms: TEST_TIMEOUTS.operationMs + 300 }, 1)
      const { result, ms } = await timed(() => store.insertUnlessExists(plant(1n, 'Monstera', 'aroid'))())
      expectLeftTag(result, 'StorageUnavailable')
      expect(ms).to.be.below(answerBoundMs(TEST_TIMEOUTS.operationMs, yardstick()))
      expect(stored(), 'not there yet at the 503').to.have.length(0)
      await eventually(() => stored().length === 1, 3000)
      const again = expectRight(await store.insertUnlessExists(plant(1n, 'Monstera', 'aroid'))())
      expect(again).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(1n, 'Monstera', 'aroid') })
      expect(stored()).to.have.length(1)
    })
  })

  describe('the socket dropped in the middle of an insert', function () {
    it('after the write: the driver retries, the peer answers from its record, one plant is stored', async function () {
      const store = open()
      wire.peer.faults.inject('insert', { kind: 'dropAfterRun' }, 1)
      const outcome = expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
      expect(outcome).to.deep.equal({ _tag: 'Inserted', plant: plant(1n, 'Monstera') })
      expect(stored()).to.deep.equal([{ _id: expectLong(1n), name: 'Monstera' }])
      const again = expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
      expect(again).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(1n, 'Monstera') })
    })

    it('before the write: the driver retries and the plant is stored once', async function () {
      const store = open()
      wire.peer.faults.inject('insert', { kind: 'dropBeforeRun' }, 1)
      const outcome = expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
      expect(outcome._tag).to.equal('Inserted')
      expect(stored()).to.have.length(1)
    })

    it('twice: StorageUnavailable, the plant kept, and the client retry is a replay', async function () {
      const store = open()
      wire.peer.faults.inject('insert', { kind: 'dropAfterRun' }, 2)
      expectLeftTag(await store.insertUnlessExists(plant(1n, 'Monstera', 'aroid'))(), 'StorageUnavailable')
      const retry = expectRight(await store.insertUnlessExists(plant(1n, 'Monstera', 'aroid'))())
      expect(retry).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(1n, 'Monstera', 'aroid') })
      expect(stored()).to.have.length(1)
    })
  })

  describe('answers from a replica set in trouble', function () {
    // What each fault leaves stored when it is shown on every attempt.
    const transient = [
      { name: 'NotWritablePrimary (an election)', fault: notWritablePrimary, keptWhenPersistent: 0 },
      { name: 'a retryable write concern error (shutdown)', fault: shutdownDuringWriteConcern, keptWhenPersistent: 1 },
    ]
    for (const { name, fault, keptWhenPersistent } of transient) {
      it(`${name} once: the driver retries once and the plant is stored once`, async function () {
        const store = open()
        wire.peer.faults.inject('insert', fault(), 1)
        const outcome = expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
        expect(outcome).to.deep.equal({ _tag: 'Inserted', plant: plant(1n, 'Monstera') })
        expect(stored()).to.have.length(1)
      })

      it(`${name} on every attempt: StorageUnavailable`, async function () {
        const store = open()
        wire.peer.faults.inject('insert', fault())
        expectLeftTag(await store.insertUnlessExists(plant(1n, 'Monstera'))(), 'StorageUnavailable')
        expect(stored()).to.have.length(keptWhenPersistent)
      })
    }

    it('a write concern timeout: StorageUnavailable, and the client retry is a replay', async function () {
      const store = open()
      wire.peer.faults.inject('insert', writeConcernTimedOut(), 1)
      expectLeftTag(await store.insertUnlessExists(plant(1n, 'Monstera'))(), 'StorageUnavailable')
      const retry = expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
      expect(retry).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(1n, 'Monstera') })
      expect(stored()).to.have.length(1)
    })
  })

  describe("transient server errors, by the categories of mongod's error_codes.yml", function () {
    // Shown on every attempt, so the driver's own retry (the peer labels RetriableError codes
    // for it, as mongod does) meets it too.
    for (const { code, name } of TRANSIENT_SERVER_CODES) {
      it(`${name} (${code}) on the insert: StorageUnavailable, nothing stored, and the retry stores it`, async function () {
        const store = open()
        wire.peer.faults.inject('insert', serverError(code, name))
        expectLeftTag(await store.insertUnlessExists(plant(1n, 'Monstera'))(), 'StorageUnavailable')
        expect(stored()).to.have.length(0)
        wire.peer.faults.clear()
        const retried = await eventuallyRight(() => store.insertUnlessExists(plant(1n, 'Monstera'))(), 5000)
        expect(retried._tag).to.equal('Inserted')
      })

      it(`${name} (${code}) on the read after a duplicate key: StorageUnavailable`, async function () {
        const store = open()
        expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
        wire.peer.faults.inject('find', serverError(code, name))
        expectLeftTag(await store.insertUnlessExists(plant(1n, 'Fern'))(), 'StorageUnavailable')
      })
    }

    it('an error that is not transient (BadValue, 2) is not called an outage', async function () {
      const store = open()
      wire.peer.faults.inject('insert', serverError(2, 'BadValue'), 1)
      const failure = await store.insertUnlessExists(plant(1n, 'Monstera'))().then(
        (result) => result,
        (error: unknown) => error,
      )
      expect(failure).to.be.instanceOf(Error)
    })
  })

  describe('two service instances on one replica set', function () {
    it('store exactly one plant per id when both create the same ids at once', async function () {
      const first = open()
      const second = open()
      const ids = Array.from({ length: 25 }, (_, i) => BigInt(i) * 7919n - 50n)
      const outcomes = await Promise.all(
        ids.flatMap((id) => [
          first.insertUnlessExists(plant(id, `first ${id}`))(),
          second.insertUnlessExists(plant(id, `second ${id}`))(),
        ]),
      )
      const results = outcomes.map(expectRight)
      for (const [index, id] of ids.entries()) {
        const pair = [results[2 * index], results[2 * index + 1]]
        const winners = pair.filter((outcome) => outcome?._tag === 'Inserted')
        expect(winners, `id ${id}`).to.have.length(1)
        const winner = winners[0]?._tag === 'Inserted' ? winners[0].plant : undefined
        const loser = pair.find((outcome) => outcome?._tag === 'AlreadyStored')
        expect(loser, `id ${id}`).to.deep.equal({ _tag: 'AlreadyStored', stored: winner })
      }
      expect(stored()).to.have.length(ids.length)
    })

    it('answer the loser with the winner once a majority has it, not before', async function () {
      const first = open()
      const second = open()
      wire.peer.faults.inject('insert', { kind: 'replicationLag', ms: 300 }, 1)
      const winning = first.insertUnlessExists(plant(1n, 'Monstera'))()
      // Give the lagging insert time to take the id before the second instance tries it.
      await new Promise((resolve) => setTimeout(resolve, 50))
      const losing = second.insertUnlessExists(plant(1n, 'Fern'))()
      const [won, lost] = await Promise.all([winning, losing])
      expect(expectRight(won)).to.deep.equal({ _tag: 'Inserted', plant: plant(1n, 'Monstera') })
      expect(expectRight(lost)).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(1n, 'Monstera') })
    })

    it('answer StorageUnavailable rather than guess while a majority does not have the winner', async function () {
      const first = open()
      const second = open()
      wire.peer.faults.inject('insert', { kind: 'replicationLag', ms: 5000 }, 1)
      const winning = first.insertUnlessExists(plant(1n, 'Monstera'))()
      await new Promise((resolve) => setTimeout(resolve, 50))
      const { result: lost, ms } = await timed(() => second.insertUnlessExists(plant(1n, 'Fern'))())
      expectLeftTag(lost, 'StorageUnavailable')
      expect(ms).to.be.below(answerBoundMs(TEST_TIMEOUTS.operationMs, yardstick()))
      expectLeftTag(await winning, 'StorageUnavailable')
    })
  })

  describe('what is not an outage', function () {
    it('throws, rather than report StorageUnavailable, for a stored document that is not a plant', async function () {
      await withRawClient(wire.peer.uri, (client) =>
        client.db(wire.dbName).collection('plants').insertOne({ _id: 7n as never, name: 42 }),
      )
      const store = open()
      const failure = await store.insertUnlessExists(plant(7n, 'Ivy'))().then(
        (result) => result,
        (error: unknown) => error,
      )
      expect(failure).to.be.instanceOf(Error)
      expect((failure as Error).message).to.equal('the document stored under _id 7 is not a plant')
    })

    it('refuses a connection string it cannot read, before opening anything', function () {
      const opened = openMongoPlantStore({ uri: 'postgres://db.example', dbName: 'x' })
      expect(E.isLeft(opened) && opened.left._tag).to.equal('InvalidMongoSettings')
    })
  })

  describe('closing', function () {
    it('lets a call in flight finish, then refuses new calls as StorageUnavailable', async function () {
      const storage = openStore(wire.peer.uri, wire.dbName)
      expectRight(await storage.store.checkReady()())
      wire.peer.faults.inject('insert', { kind: 'delayReply', ms: 200 }, 1)
      const inFlight = storage.store.insertUnlessExists(plant(1n, 'Monstera'))()
      await new Promise((resolve) => setTimeout(resolve, 50))
      await storage.close()
      expect(expectRight(await inFlight)._tag).to.equal('Inserted')
      expectLeftTag(await storage.store.insertUnlessExists(plant(2n, 'Fern'))(), 'StorageUnavailable')
      expectLeftTag(await storage.store.checkReady()(), 'StorageUnavailable')
    })
  })
})

/** Waits until `condition` holds, failing the test when `withinMs` pass first. */
const eventually = async (condition: () => boolean, withinMs: number): Promise<void> => {
  const until = Date.now() + withinMs
  while (!condition()) {
    if (Date.now() > until) expect.fail(`not so after ${withinMs} ms`)
    await sleep(20)
  }
}

// The peer keeps documents in their BSON types: an int64 id is a Long.
const expectLong = (id: bigint) => Long.fromBigInt(id)
