import { expect } from 'chai'
import { Long } from 'bson'
import { loadConfig } from '../../apps/server/config.js'
import { startService, type RunningService } from '../../apps/server/service.js'
import { expectRight } from '../support/either.js'
import { makeMemoryLogger, postPlant, TOKEN } from '../support/http-app.js'
import { startMongoPeer, type MongoPeer } from '../support/mongo-peer/server.js'
import { expectErrorDocument, expectPlant } from '../support/responses.js'
import { freshDbName, timed } from './support.js'

// The service takes its driver timeouts from the connection string when it names them: short
// ones here, so that waiting out an outage does not make the test slow. The operation deadline
// stays the production one (5 s).
const TEST_URI_OPTIONS = 'serverSelectionTimeoutMS=1000&connectTimeoutMS=500&socketTimeoutMS=1500'
const DEADLINE_MS = 5000
const BOUND_MS = DEADLINE_MS + 1500

describe('the service on MongoDB (wire peer)', function () {
  this.timeout(20_000)
  let peer: MongoPeer
  let dbName: string
  const services: RunningService[] = []

  const startOnPeer = async (): Promise<RunningService> => {
    const config = expectRight(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        PLANT_STORE_TOKENS: TOKEN,
        MONGODB_URI: `${peer.uri}&${TEST_URI_OPTIONS}`,
        MONGODB_DB: dbName,
      }),
    )
    const service = expectRight(await startService(config, makeMemoryLogger()))
    services.push(service)
    return service
  }
  const stored = () => peer.documents(`${dbName}.plants`)
  const readyz = (url: string) => fetch(`${url}/readyz`)

  beforeEach(async function () {
    peer = await startMongoPeer()
    dbName = freshDbName('service')
  })
  afterEach(async function () {
    await Promise.all(services.splice(0).map((service) => service.close()))
    await peer.stop()
  })

  describe('every contract row that reaches storage', function () {
    let url: string
    beforeEach(async function () {
      url = (await startOnPeer()).url
    })

    it('answers 200 with exactly name and tag, and stores {_id: int64, name, tag}', async function () {
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera","tag":"aroid","colour":"green"}'), {
        name: 'Monstera',
        tag: 'aroid',
      })
      expect(stored()).to.deep.equal([{ _id: Long.fromBigInt(1n), name: 'Monstera', tag: 'aroid' }])
    })

    it('answers a replay with the stored plant, another plant under the id with 409, and keeps the first', async function () {
      const body = '{"id":7,"name":"Aloe","tag":"succulent"}'
      await expectPlant(await postPlant(url, body), { name: 'Aloe', tag: 'succulent' })
      await expectPlant(await postPlant(url, body), { name: 'Aloe', tag: 'succulent' })
      await expectErrorDocument(await postPlant(url, '{"id":7,"name":"Aloe"}'), 409)
      await expectErrorDocument(await postPlant(url, '{"id":7,"name":"Agave","tag":"succulent"}'), 409)
      expect(stored()).to.deep.equal([{ _id: Long.fromBigInt(7n), name: 'Aloe', tag: 'succulent' }])
    })

    it('keeps ids exact: 2^53 and 2^53 + 1 are two plants, and both ends of int64 are stored', async function () {
      for (const [id, name] of [
        ['9007199254740992', 'even'],
        ['9007199254740993', 'odd'],
        ['-9223372036854775808', 'min'],
        ['9223372036854775807', 'max'],
      ]) {
        await expectPlant(await postPlant(url, `{"id":${id},"name":"${name}"}`), { name: name ?? '' })
      }
      expect(stored().map((document) => String(document._id))).to.deep.equal([
        '9007199254740992',
        '9007199254740993',
        '-9223372036854775808',
        '9223372036854775807',
      ])
      await expectErrorDocument(await postPlant(url, '{"id":9007199254740993,"name":"even"}'), 409)
    })

    it('stores and answers Unicode exactly as sent', async function () {
      const name = 'Ficus \u{1F331} cafe\u0301 \u0000'
      await expectPlant(await postPlant(url, JSON.stringify({ id: 4, name, tag: '\u{10FFFF}' })), {
        name,
        tag: '\u{10FFFF}',
      })
      expect(stored()).to.deep.equal([{ _id: Long.fromBigInt(4n), name, tag: '\u{10FFFF}' }])
    })

    it('refuses what the contract refuses without storing anything', async function () {
      const refusals: Array<[Promise<Response>, number]> = [
        [postPlant(url, '{"id":1,"name":"x"}', { Authorization: '' }), 401],
        [postPlant(url, '{"id":1,"name":"x"}', { Authorization: 'Bearer unknown-token-0123456789' }), 401],
        [postPlant(url, '{"id":1,"name":"x"}', { 'Content-Type': 'text/plain' }), 415],
        [postPlant(url, JSON.stringify({ id: 1, name: 'x'.repeat(70 * 1024) })), 413],
        [postPlant(url, '{"id":1,'), 400],
        [postPlant(url, '{"id":9223372036854775808,"name":"x"}'), 400],
        [postPlant(url, '{"id":1,"name":"x","tag":null}'), 400],
        [postPlant(url, '{"id":1,"name":"\\ud800"}'), 400],
      ]
      for (const [response, status] of refusals) await expectErrorDocument(await response, status)
      expect(stored()).to.deep.equal([])
    })

    it('answers /readyz 200 while MongoDB answers', async function () {
      expect((await readyz(url)).status).to.equal(200)
    })
  })

  describe('MongoDB unreachable or slow', function () {
    it('starts while MongoDB is down: 503 until it comes up, then 200, all by itself', async function () {
      await peer.goDown()
      const { url } = await startOnPeer()
      await expectErrorDocument(await readyz(url), 503)
      const { result: refused, ms } = await timed(() => postPlant(url, '{"id":1,"name":"Monstera"}'))
      const message = await expectErrorDocument(refused, 503)
      expect(ms).to.be.below(BOUND_MS)
      expect(message).to.not.match(/mongo|127\.0\.0\.1|ECONN|topology|selection/i)
      await peer.comeBack()
      await eventuallyStatus(() => readyz(url), 200)
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera"}'), { name: 'Monstera' })
      expect(stored()).to.have.length(1)
    })

    it('answers 503 within the deadline while MongoDB is down, and 200 again once it is back', async function () {
      const { url } = await startOnPeer()
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera"}'), { name: 'Monstera' })
      await peer.goDown()
      const { result: refused, ms } = await timed(() => postPlant(url, '{"id":2,"name":"Fern"}'))
      await expectErrorDocument(refused, 503)
      expect(ms).to.be.below(BOUND_MS)
      await expectErrorDocument(await readyz(url), 503)
      await peer.comeBack()
      await eventuallyStatus(() => postPlant(url, '{"id":2,"name":"Fern"}'), 200)
      expect(stored()).to.have.length(2)
    })

    it('answers 503 within the deadline when MongoDB does not answer in time', async function () {
      const { url } = await startOnPeer()
      expect((await readyz(url)).status).to.equal(200)
      peer.faults.inject('insert', { kind: 'delayReply', ms: 30_000 })
      const { result: refused, ms } = await timed(() => postPlant(url, '{"id":1,"name":"Monstera"}'))
      await expectErrorDocument(refused, 503)
      expect(ms).to.be.below(BOUND_MS)
      peer.faults.clear()
      // The slow write did land: the client's retry is a replay.
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera"}'), { name: 'Monstera' })
      expect(stored()).to.have.length(1)
    })

    it('loses nothing and stores nothing twice when the connection drops in the middle of an insert', async function () {
      const { url } = await startOnPeer()
      peer.faults.inject('insert', { kind: 'dropAfterRun' }, 1)
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera"}'), { name: 'Monstera' })
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera"}'), { name: 'Monstera' })
      expect(stored()).to.deep.equal([{ _id: Long.fromBigInt(1n), name: 'Monstera' }])
    })
  })

  describe('several instances and shutdown', function () {
    it('two instances creating the same ids at once store exactly one plant per id', async function () {
      const [first, second] = [await startOnPeer(), await startOnPeer()]
      const ids = Array.from({ length: 15 }, (_, i) => 9007199254740985n + BigInt(i)).map(String)
      const responses = await Promise.all(
        ids.flatMap((id) => [
          postPlant(first.url, `{"id":${id},"name":"first"}`),
          postPlant(second.url, `{"id":${id},"name":"second"}`),
        ]),
      )
      const statuses = responses.map((response) => response.status)
      for (const [index, id] of ids.entries()) {
        expect([statuses[2 * index], statuses[2 * index + 1]].sort(), `id ${id}`).to.deep.equal([200, 409])
      }
      const winners = await Promise.all(
        responses.map(async (response) => (response.status === 200 ? ((await response.json()) as { name: string }).name : undefined)),
      )
      const documents = stored()
      expect(documents).to.have.length(ids.length)
      for (const [index, id] of ids.entries()) {
        const document = documents.find((d) => String(d._id) === id)
        expect(document?.name, `id ${id}`).to.equal(winners[2 * index] ?? winners[2 * index + 1])
      }
    })

    it('finishes a request in flight before it closes MongoDB on shutdown', async function () {
      const service = await startOnPeer()
      expect((await readyz(service.url)).status).to.equal(200)
      peer.faults.inject('insert', { kind: 'delayReply', ms: 300 }, 1)
      const inFlight = postPlant(service.url, '{"id":1,"name":"Monstera"}')
      await new Promise((resolve) => setTimeout(resolve, 100))
      await Promise.all([service.close(), expectPlant(await inFlight, { name: 'Monstera' })])
      services.splice(services.indexOf(service), 1)
      expect(stored()).to.have.length(1)
    })
  })
})

/** Asks again until the answer has `status`, failing after a few seconds. */
const eventuallyStatus = async (ask: () => Promise<Response>, status: number): Promise<void> => {
  const until = Date.now() + 8000
  for (;;) {
    const response = await ask()
    if (response.status === status) return
    await response.arrayBuffer()
    if (Date.now() > until) expect.fail(`still ${response.status} instead of ${status}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
