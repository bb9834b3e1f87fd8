import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import type { MongoClient } from 'mongodb'
import { makeMongoConnection, type MongoConnection } from '../../../../adapters/mongodb/connection.js'
import { systemClock } from '../../../../wire/index.js'
import { expectRight } from '../../../support/either.js'
import { notWritablePrimary } from '../../../support/mongo-peer/faults.js'
import { PEER_MONITORING_MODES, startMongoPeer, type MongoPeer } from '../../../support/mongo-peer/server.js'
import { freshDbName, TEST_TIMEOUTS } from '../../../support/mongodb/support.js'

// Which client a connection uses is seen through the database handle each call is given.
for (const monitoring of PEER_MONITORING_MODES) describe(`when the MongoDB connection replaces its client (wire peer, ${monitoring} monitoring)`, function () {
  this.timeout(30_000)
  let peer: MongoPeer
  let connection: MongoConnection
  const clientNow = async (): Promise<MongoClient> => expectRight(await connection.probe(async ({ db }) => db.client)())
  const ping = () => connection.probe(({ db, within }) => within((signal) => db.command({ ping: 1 }, { signal })))()

  // Readiness probes, one after the other, for longer than the watchdog's period.
  const probeThroughThePeriod = async (): Promise<void> => {
    const since = performance.now()
    while (performance.now() - since < TEST_TIMEOUTS.replaceClientAfterMs + 1500) {
      expect(E.isLeft(await ping())).to.equal(true)
    }
  }

  beforeEach(async function () {
    peer = await startMongoPeer({ monitoring })
    connection = expectRight(
      makeMongoConnection({ uri: peer.uri, dbName: freshDbName('replacement'), collectionName: 'plants', timeouts: TEST_TIMEOUTS, clock: systemClock }),
    )
    expectRight(await ping())
  })
  afterEach(async function () {
    await connection.close()
    await peer.stop()
  })

  it('keeps it while the server is reachable but slower than the deadline', async function () {
    const before = await clientNow()
    peer.faults.inject('ping', { kind: 'delayReply', ms: 5000 })
    await probeThroughThePeriod()
    peer.faults.clear()
    expect(await clientNow()).to.equal(before)
  })

  it('replaces it when no primary can be found for the whole period', async function () {
    const before = await clientNow()
    peer.faults.inject('ping', notWritablePrimary())
    await probeThroughThePeriod()
    peer.faults.clear()
    expect(await clientNow()).to.not.equal(before)
  })
})
