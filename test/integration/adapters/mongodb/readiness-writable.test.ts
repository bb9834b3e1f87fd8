import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { DEFAULT_READINESS_MAX_AGE_MS } from '../../../../adapters/http/index.js'
import { loadConfig } from '../../../../apps/server/config.js'
import { startService } from '../../../../apps/server/service.js'
import type { PlantStore, StoreError } from '../../../../core/index.js'
import { expectRight } from '../../../support/either.js'
import { makeMemoryLogger, TOKEN } from '../../../support/http-app.js'
import { PEER_MONITORING_MODES } from '../../../support/mongo-peer/server.js'
import { plant } from '../../../support/plants.js'
import { eventuallyRight, openStore, useWirePeer } from '../../../support/mongodb/support.js'

// Ready means a write can go through: a ping is answered by any member, a write only by a
// primary (or a mongos, or a standalone).
for (const monitoring of PEER_MONITORING_MODES) describe(`readiness means writable (wire peer, ${monitoring} monitoring)`, function () {
  this.timeout(20_000)
  const wire = useWirePeer('writable', monitoring)
  // Readiness follows the driver's monitor, which hears of a step-down at once from a server that
  // streams hello and at its next heartbeat from one it polls: half a second here.
  const direct = (): string => `mongodb://127.0.0.1:${wire.peer.port}/?directConnection=true&heartbeatFrequencyMS=500`
  const throughReplicaSet = (): string => `${wire.peer.uri}&heartbeatFrequencyMS=500`
  const eventuallyLeft = async <A>(probe: () => Promise<E.Either<StoreError, A>>): Promise<E.Either<StoreError, A>> => {
    const until = Date.now() + 3000
    for (;;) {
      const answer = await probe()
      if (E.isLeft(answer) || Date.now() > until) return answer
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const open = (uri: string): PlantStore => wire.closeAfter(openStore(uri, wire.dbName)).store

  const expectNotReadyNaming = (answer: E.Either<StoreError, unknown>, named: RegExp): void => {
    if (E.isRight(answer)) expect.fail('expected not ready, got ready')
    if (answer.left._tag !== 'StorageUnavailable') expect.fail(`expected StorageUnavailable, got ${answer.left._tag}`)
    expect(answer.left.configurationFault, 'the state named, for the operator').to.match(named)
  }

  it('a direct connection to a secondary is never ready, and says it is connected to a secondary', async function () {
    wire.peer.stepDown()
    const store = open(direct())
    for (let probe = 0; probe < 3; probe += 1) {
      expectNotReadyNaming(await store.checkReady()(), /directConnection=true.*is a secondary.*replicaSet/)
    }
    const create = await store.insertUnlessExists(plant(1n, 'Monstera'))()
    expect(E.isLeft(create) && create.left._tag, 'a create on a secondary').to.equal('StorageUnavailable')
    expect(wire.stored()).to.deep.equal([])
  })

  it('a direct connection to a primary that steps down stops being ready, and is ready again once it is primary', async function () {
    const store = open(direct())
    expectRight(await store.checkReady()())
    wire.peer.stepDown()
    expectNotReadyNaming(await eventuallyLeft(() => store.checkReady()()), /is a secondary/)
    wire.peer.stepUp()
    await eventuallyRight(() => store.checkReady()(), 5000)
    expect(expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())._tag).to.equal('Inserted')
  })

  it('through the replica set, a primary that steps down is not ready until one is primary again', async function () {
    const store = open(throughReplicaSet())
    expectRight(await store.checkReady()())
    wire.peer.stepDown()
    const answer = await eventuallyLeft(() => store.checkReady()())
    expect(E.isLeft(answer), 'ready with no primary').to.equal(true)
    wire.peer.stepUp()
    await eventuallyRight(() => store.checkReady()(), 5000)
  })

  // Readiness asks the server itself (hello), so the monitor's heartbeat, however slow, is not
  // what a step-down waits for: a polling monitor at 5 s still takes the member for the primary.
  it('a step-down is seen at the first probe after it, whatever the monitor\'s heartbeat', async function () {
    const store = open(`${wire.peer.uri}&heartbeatFrequencyMS=5000`)
    expectRight(await store.checkReady()())
    wire.peer.stepDown()
    const probes: Array<E.Either<StoreError, void>> = []
    for (let probe = 0; probe < 10; probe += 1) probes.push(await store.checkReady()())
    probes.forEach((answer, index) => {
      if (E.isRight(answer)) expect.fail(`probe ${index + 1} after the step-down: ready`)
      expect(String(answer.left._tag === 'StorageUnavailable' ? answer.left.cause : undefined), `probe ${index + 1}`).to.match(/is a secondary/)
    })
    const create = await store.insertUnlessExists(plant(1n, 'Monstera'))()
    expect(E.isLeft(create) && create.left._tag, 'a create on the stepped-down member').to.equal('StorageUnavailable')
    wire.peer.stepUp()
    await eventuallyRight(() => store.checkReady()(), 8000)
  })

  it('/readyz answers 503 one readiness period after a step-down, whatever the monitor\'s heartbeat', async function () {
    const config = expectRight(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        PLANT_STORE_TOKENS: TOKEN,
        MONGODB_URI: `${wire.peer.uri}&heartbeatFrequencyMS=5000`,
        MONGODB_DB: wire.dbName,
        SHUTDOWN_DRAIN_MS: '0',
      }),
    )
    const service = wire.closeAfter(expectRight(await startService(config, makeMemoryLogger())))
    const until = Date.now() + 5000
    while ((await fetch(`${service.url}/readyz`)).status !== 200 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await fetch(`${service.url}/readyz`)).status, 'ready before the step-down').to.equal(200)
    wire.peer.stepDown()
    // The answer of the last probe, taken before the step-down, serves for one period; then storage is asked again.
    await new Promise((resolve) => setTimeout(resolve, DEFAULT_READINESS_MAX_AGE_MS + 50))
    const statuses: number[] = []
    for (let probe = 0; probe < 10; probe += 1) statuses.push((await fetch(`${service.url}/readyz`)).status)
    expect(statuses).to.deep.equal(Array.from({ length: 10 }, () => 503))
  })

  it('the service warns at start that its storage is a secondary, and /readyz answers 503 naming it', async function () {
    wire.peer.stepDown()
    const log = makeMemoryLogger()
    const config = expectRight(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', PLANT_STORE_TOKENS: TOKEN, MONGODB_URI: direct(), MONGODB_DB: wire.dbName, SHUTDOWN_DRAIN_MS: '0' }),
    )
    const service = wire.closeAfter(expectRight(await startService(config, log)))
    const until = Date.now() + 5000
    while (!log.lines.some(({ msg }) => msg === 'storage not ready at start') && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20))
    const warning = log.lines.find(({ msg }) => msg === 'storage not ready at start')
    expect(warning?.level).to.equal('warn')
    expect(String(warning?.detail)).to.match(/is a secondary/)
    const readyz = await fetch(`${service.url}/readyz`)
    expect(readyz.status).to.equal(503)
    expect(((await readyz.json()) as { message: string }).message).to.match(/is a secondary/)
  })
})
