import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import type { MongoTimeouts } from '../../../../adapters/mongodb/index.js'
import type { PlantStore, StoreError } from '../../../../core/index.js'
import type { ServerType } from 'mongodb'
import { notWritableStateOf } from '../../../../adapters/mongodb/writable-server.js'
import { expectRight } from '../../../support/either.js'
import { startMongoPeer, type MongoPeer } from '../../../support/mongo-peer/server.js'
import { plant } from '../../../support/plants.js'
import { freshDbName, openStore, TEST_TIMEOUTS, timed } from '../../../support/mongodb/support.js'
import { deadlineBeside } from '../../../support/yardstick.js'

// A sharded cluster as the adapter meets it: one or several mongos in front of the shards (the
// peer plays the routers; the documents they share stand for the shards, whose unique `_id`
// index, with `_id` the shard key, decides one winner per id), directly or behind a load balancer.
describe('scaled out: routers, several of them, a load balancer (wire peer)', function () {
  this.timeout(20_000)
  const peers: MongoPeer[] = []
  const closing: Array<() => Promise<void>> = []
  const started = async (...options: Parameters<typeof startMongoPeer>): Promise<MongoPeer> => {
    const peer = await startMongoPeer(...options)
    peers.push(peer)
    return peer
  }
  const open = (uri: string, dbName: string, timeouts?: Partial<MongoTimeouts>): PlantStore => {
    const opened = openStore(uri, dbName, timeouts)
    closing.push(opened.close)
    return opened.store
  }
  afterEach(async function () {
    await Promise.all(closing.splice(0).map((close) => close()))
    await Promise.all(peers.splice(0).map((peer) => peer.stop()))
  })

  it('through a mongos: ready, a create stored, its replay answered, a conflict told', async function () {
    const mongos = await started({ role: 'mongos' })
    const dbName = freshDbName('mongos')
    const store = open(mongos.uri, dbName)
    expectRight(await store.checkReady()())
    expect(expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())._tag).to.equal('Inserted')
    expect(expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())._tag).to.equal('AlreadyStored')
    expect(expectRight(await store.insertUnlessExists(plant(1n, 'Fern'))())).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(1n, 'Monstera') })
  })

  it('instances on several mongos creating the same ids at once: one winner per id, every other answer the winner', async function () {
    const first = await started({ role: 'mongos' })
    const second = await started({ role: 'mongos', storage: first.storage })
    const dbName = freshDbName('routers')
    const both = `mongodb://127.0.0.1:${first.port},127.0.0.1:${second.port}/?directConnection=false`
    const ids = Array.from({ length: 40 }, (_, index) => BigInt(index + 1))
    const uris = [first.uri, second.uri, both]
    const race = (instances: ReadonlyArray<PlantStore>) =>
      Promise.all(ids.flatMap((id) => instances.map((store, instance) => store.insertUnlessExists(plant(id, `Plant ${id} from ${instance}`))())))
    // 120 creates at once, each instance opening its connections for them. The yardstick is the
    // same race on a database of its own, with time to spare: the deadline is the written one, or
    // three times what the race takes this machine now.
    const yardstickDb = freshDbName('routers_yardstick')
    const { ms: yardstick } = await timed(() => race(uris.map((uri) => open(uri, yardstickDb, { ...TEST_TIMEOUTS, operationMs: 60_000 }))))
    const operationMs = deadlineBeside(TEST_TIMEOUTS.operationMs, 0, yardstick, 3)
    this.timeout(10_000 + 3 * operationMs)
    const answers = await race(uris.map((uri) => open(uri, dbName, { ...TEST_TIMEOUTS, operationMs })))
    const stored = first.documents(`${dbName}.plants`)
    expect(stored).to.have.length(ids.length)
    for (const id of ids) {
      const winner = stored.find(({ _id }) => BigInt(String(_id)) === id)
      const forId = answers.filter((answer) => E.isRight(answer) && (answer.right._tag === 'Inserted' ? answer.right.plant.id : answer.right.stored.id) === id)
      expect(forId, `answers for id ${id}, within ${operationMs} ms`).to.have.length(uris.length)
      expect(forId.filter((answer) => E.isRight(answer) && answer.right._tag === 'Inserted'), `winners of id ${id}`).to.have.length(1)
      for (const answer of forId) {
        if (E.isRight(answer) && answer.right._tag === 'AlreadyStored') expect(answer.right.stored.name).to.equal(winner?.name)
      }
    }
  })

  it('a shard stepping down, told per document by mongos, is a 503 for those creates alone', async function () {
    const mongos = await started({ role: 'mongos' })
    const dbName = freshDbName('shard_step_down')
    const store = open(mongos.uri, dbName)
    expectRight(await store.checkReady()())
    mongos.faults.inject(
      'insert',
      { kind: 'refuseDocuments', refusal: { code: 10107, errmsg: 'not primary', refuses: (document) => BigInt(String(document._id)) % 2n === 0n } },
      1,
    )
    const answers = await Promise.all([1n, 2n, 3n, 4n].map((id) => store.insertUnlessExists(plant(id, `Sharded ${id}`))()))
    expect(answers.map((answer) => (E.isRight(answer) ? answer.right._tag : answer.left._tag))).to.deep.equal(['Inserted', 'StorageUnavailable', 'Inserted', 'StorageUnavailable'])
    expect(mongos.documents(`${dbName}.plants`).map(({ _id }) => String(_id))).to.deep.equal(['1', '3'])
  })

  it('behind a load balancer (loadBalanced=true): ready, creates stored', async function () {
    const balanced = await started({ role: 'mongosBehindLoadBalancer' })
    const dbName = freshDbName('balanced')
    const store = open(balanced.uri, dbName)
    expectRight(await store.checkReady()())
    const answers = await Promise.all([1n, 2n, 3n].map((id) => store.insertUnlessExists(plant(id, `Balanced ${id}`))()))
    expect(answers.map((answer) => E.isRight(answer) && answer.right._tag)).to.deep.equal(['Inserted', 'Inserted', 'Inserted'])
  })

  it('loadBalanced=true with no load balancer: a configuration fault naming it, for creates and readiness, never a 500', async function () {
    const member = await started()
    const dbName = freshDbName('no_balancer')
    const store = open(`mongodb://127.0.0.1:${member.port}/?loadBalanced=true`, dbName)
    const answers: ReadonlyArray<E.Either<StoreError, unknown>> = [await store.insertUnlessExists(plant(1n, 'Monstera'))(), await store.checkReady()()]
    for (const answer of answers) {
      if (E.isRight(answer)) expect.fail('expected a configuration fault')
      expect(answer.left._tag).to.equal('StorageUnavailable')
      expect(answer.left._tag === 'StorageUnavailable' ? answer.left.configurationFault : undefined).to.match(/loadBalanced=true asks for a load balancer/)
    }
    expect(member.documents(`${dbName}.plants`)).to.deep.equal([])
  })
})

describe('which servers can take a write (the driver\'s view of them)', function () {
  type Server = { readonly address: string; readonly type: ServerType }
  const CASES: ReadonlyArray<{ readonly what: string; readonly servers: ReadonlyArray<Server>; readonly state: RegExp | undefined }> = [
    { what: 'a replica set with a primary', servers: [{ address: 'db1:27017', type: 'RSSecondary' }, { address: 'db2:27017', type: 'RSPrimary' }], state: undefined },
    { what: 'a mongos', servers: [{ address: 'r1:27017', type: 'Mongos' }], state: undefined },
    { what: 'a standalone', servers: [{ address: 'db:27017', type: 'Standalone' }], state: undefined },
    { what: 'a load balancer', servers: [{ address: 'lb:27017', type: 'LoadBalancer' }], state: undefined },
    { what: 'a secondary', servers: [{ address: 'db2:27017', type: 'RSSecondary' }], state: /^db2:27017 is a secondary$/ },
    { what: 'an arbiter', servers: [{ address: 'db3:27017', type: 'RSArbiter' }], state: /^db3:27017 is an arbiter$/ },
    { what: 'a member starting up', servers: [{ address: 'db4:27017', type: 'RSOther' }], state: /is not a primary/ },
    { what: 'no primary among several', servers: [{ address: 'db1:27017', type: 'RSSecondary' }, { address: 'db2:27017', type: 'Unknown' }], state: /db1:27017 is a secondary, db2:27017 has not answered yet/ },
    { what: 'nothing known yet', servers: [], state: /no server is known yet/ },
  ]
  for (const { what, servers, state } of CASES) {
    it(`${what}: ${state === undefined ? 'writable' : 'not writable, named'}`, function () {
      const seen = notWritableStateOf(servers)
      if (state === undefined) expect(seen).to.equal(undefined)
      else expect(seen).to.match(state)
    })
  }
})
