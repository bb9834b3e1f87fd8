import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { openMongoPlantStore } from '../../../../adapters/mongodb/index.js'
import type { PlantStore, StoreError } from '../../../../core/index.js'
import { expectRight } from '../../../support/either.js'
import { serverError } from '../../../support/mongo-peer/faults.js'
import { PEER_MONITORING_MODES } from '../../../support/mongo-peer/server.js'
import { plant } from '../../../support/plants.js'
import { eventuallyRight, openStore, TEST_TIMEOUTS, useWirePeer } from '../../../support/mongodb/support.js'

// A configuration fault is StorageUnavailable (the service cannot serve) that names what an
// operator must correct; retrying does not help, so it must not look like an outage.
const expectConfigurationFault = (answer: E.Either<StoreError, unknown>, named: RegExp): void => {
  if (E.isRight(answer)) expect.fail('expected a configuration fault, got a Right')
  if (answer.left._tag !== 'StorageUnavailable') expect.fail(`expected StorageUnavailable, got ${answer.left._tag}`)
  expect(answer.left.configurationFault, 'the fault named').to.match(named)
}

for (const monitoring of PEER_MONITORING_MODES) describe(`MongoDB configuration faults (wire peer, ${monitoring} monitoring)`, function () {
  this.timeout(20_000)
  const wire = useWirePeer('configuration', monitoring)
  const open = (uri: string): PlantStore => wire.closeAfter(openStore(uri, wire.dbName)).store
  const stored = wire.stored

  describe('found at run time', function () {
    it('a refused credential (the handshake failure the driver labels ResetPool) is named, by the store and by readiness', async function () {
      // The peer knows no user, so it refuses every credential, as mongod refuses an unknown one.
      const store = open(`${wire.peer.uri.replace('mongodb://', 'mongodb://plants:wrong@')}&authSource=admin`)
      expectConfigurationFault(await store.insertUnlessExists(plant(1n, 'Monstera'))(), /refused the credential.*AuthenticationFailed, 18/)
      expectConfigurationFault(await store.checkReady()(), /refused the credential/)
      expect(stored()).to.deep.equal([])
    })

    it('a missing privilege (Unauthorized, 13) on the insert is named, and readiness says so until a store call succeeds', async function () {
      const store = open(wire.peer.uri)
      expectRight(await store.checkReady()())
      wire.peer.faults.inject('insert', serverError(13, 'Unauthorized', 'not authorized on plants to execute command { insert: "plants" }'), 1)
      expectConfigurationFault(await store.insertUnlessExists(plant(1n, 'Monstera'))(), /lacks a privilege.*Unauthorized, 13/)
      expectConfigurationFault(await store.checkReady()(), /lacks a privilege/)
      expect(expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())._tag).to.equal('Inserted')
      expectRight(await store.checkReady()())
    })

    it('readiness is tried again once configurationFaultHeldMs have passed without a store call', async function () {
      const store = open(wire.peer.uri)
      wire.peer.faults.inject('insert', serverError(13, 'Unauthorized'), 1)
      expectConfigurationFault(await store.insertUnlessExists(plant(1n, 'Monstera'))(), /Unauthorized/)
      expectConfigurationFault(await store.checkReady()(), /Unauthorized/)
      await eventuallyRight(() => store.checkReady()(), TEST_TIMEOUTS.configurationFaultHeldMs + 2000)
    })

    for (const { query, named } of [
      { query: 'w=dataCenters', named: /mode the replica set does not define.*UnknownReplWriteConcern, 79/ },
      { query: 'w=3', named: /cannot satisfy the write concern.*UnsatisfiableWriteConcern, 100/ },
    ]) {
      it(`a write concern the replica set cannot honour (${query}) is named, though the write is applied`, async function () {
        const store = open(`${wire.peer.uri}&${query}`)
        expectConfigurationFault(await store.insertUnlessExists(plant(1n, 'Monstera'))(), named)
        expect(stored()).to.have.length(1)
      })
    }
  })

  describe('known at start', function () {
    // Each option with what the message must say of why it cannot be used.
    const REFUSED: ReadonlyArray<{ readonly option: string; readonly named: string; readonly why: RegExp }> = [
      { option: 'promoteLongs=false', named: 'promoteLongs=false', why: /int64 values, plant ids among them, as bigint/ },
      { option: 'promoteValues=false', named: 'promoteValues=false', why: /int64 values, plant ids among them, as bigint/ },
      { option: 'raw=true', named: 'raw=true', why: /replies would stay undecoded bytes.*recognise a taken id/ },
      { option: 'w=0', named: 'w=0', why: /unacknowledged insert gets no answer.*id another plant already holds/ },
      { option: 'W=0&journal=true', named: 'w=0', why: /unacknowledged insert/ },
      { option: 'w=0&journal=false', named: 'w=0', why: /unacknowledged insert/ },
      { option: 'compressors=zlib', named: 'compressors=zlib', why: /compresses a command after its last look at the deadline.*sent to MongoDB after its request was answered 503/ },
      { option: 'compressors=snappy,zstd', named: 'compressors=snappy,zstd', why: /after its request was answered 503/ },
      { option: 'compressors=none,zlib&zlibCompressionLevel=9', named: 'compressors=zlib', why: /after its request was answered 503/ },
    ]
    for (const { option, named, why } of REFUSED) {
      it(`${option} in the connection string is refused before anything is opened, naming ${named} and why`, function () {
        const opening = openMongoPlantStore({ uri: `${wire.peer.uri}&${option}`, dbName: wire.dbName })
        if (E.isRight(opening)) {
          wire.closeAfter(opening.right)
          expect.fail(`${option} was accepted`)
        }
        expect(opening.left._tag).to.equal('InvalidMongoSettings')
        expect(opening.left.message).to.include(`${named} cannot be used`)
        expect(opening.left.message).to.match(why)
      })
    }

    it('names every refused option at once', function () {
      const opening = openMongoPlantStore({ uri: `${wire.peer.uri}&promoteLongs=false&w=0&compressors=zlib`, dbName: wire.dbName })
      if (E.isRight(opening)) {
        wire.closeAfter(opening.right)
        expect.fail('the options were accepted')
      }
      for (const named of ['promoteLongs=false', 'w=0', 'compressors=zlib']) expect(opening.left.message).to.include(`${named} cannot be used`)
    })

    for (const option of ['w=1', 'compressors=none', 'zlibCompressionLevel=6']) {
      it(`${option} is accepted: it keeps every promise`, async function () {
        const store = open(`${wire.peer.uri}&${option}`)
        expect(expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())._tag).to.equal('Inserted')
      })
    }
  })
})
