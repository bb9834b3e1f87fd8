import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { expectRight } from '../../../support/either.js'
import { PEER_MONITORING_MODES } from '../../../support/mongo-peer/server.js'
import { plant } from '../../../support/plants.js'
import { eventuallyRight, openStore, useWirePeer } from '../../../support/mongodb/support.js'

// mongod fails every write concern wait pending as its primary steps down (PrimarySteppedDown,
// 189): the write is kept but not acknowledged, so the create is a 503 and its retry a replay.
for (const monitoring of PEER_MONITORING_MODES) describe(`the primary steps down while a majority wait is pending (wire peer, ${monitoring} monitoring)`, function () {
  this.timeout(20_000)
  const wire = useWirePeer('step_down', monitoring)

  it('the create is answered 503 with its plant kept, and the same create once a primary is back is a replay', async function () {
    const { store } = wire.closeAfter(openStore(wire.peer.uri, wire.dbName))
    expect(expectRight(await store.insertUnlessExists(plant(100n, 'Warm-up'))())._tag).to.equal('Inserted')
    // A majority well within the deadline: without the step-down, the create would be a 200.
    wire.peer.faults.inject('insert', { kind: 'replicationLag', ms: 600 }, 1)
    const create = store.insertUnlessExists(plant(1n, 'Monstera'))()
    while (wire.stored().length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    wire.peer.stepDown()
    const answer = await create
    expect(E.isLeft(answer) ? answer.left._tag : answer.right._tag, 'the create whose majority wait the step-down ended').to.equal('StorageUnavailable')
    expect(wire.stored().map(({ _id }) => String(_id))).to.deep.equal(['100', '1'])
    wire.peer.stepUp()
    const replay = await eventuallyRight(() => store.insertUnlessExists(plant(1n, 'Monstera'))(), 8000)
    expect(replay).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(1n, 'Monstera') })
  })
})
