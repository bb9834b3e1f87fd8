import { DEFAULT_READINESS_MAX_AGE_MS } from '../../../../adapters/http/index.js'
import { expect } from 'chai'
import { Long } from 'bson'
import { request } from 'node:http'
import { loadConfig } from '../../../../apps/server/config.js'
import { startService, type RunningService } from '../../../../apps/server/service.js'
import { expectRight } from '../../../support/either.js'
import { makeMemoryLogger, postPlant, TOKEN } from '../../../support/http-app.js'
import { parsePrometheusText, valueOf } from '../../../support/prometheus-text.js'
import { sentByAnOperation, serverError, TRANSIENT_SERVER_ERRORS } from '../../../support/mongo-peer/faults.js'
import { flap, OBSERVED_FLAPPING } from '../../../support/mongo-peer/flapping.js'
import { startMongoPeer, type MongoPeer } from '../../../support/mongo-peer/server.js'
import { expectErrorDocument, expectPlant } from '../../../support/responses.js'
import { serviceContract, startServiceOn } from '../../../contract/mongodb/service.contract.js'
import { answerBoundMs, storedDocuments, timed, useCreateYardstick, useWirePeer } from '../../../support/mongodb/support.js'
import { deadlineBeside, inRunsWithRoom, yardstickMs } from '../../../support/yardstick.js'

// The service takes its driver timeouts from the connection string when it names them: short
// ones here, so that waiting out an outage does not make the test slow. The operation deadline
// stays the production one (5 s).
const TEST_URI_OPTIONS = 'serverSelectionTimeoutMS=1000&connectTimeoutMS=500&socketTimeoutMS=5000'
const DEADLINE_MS = 5000

describe('the service on MongoDB under faults (wire peer)', function () {
  this.timeout(20_000)
  const wire = useWirePeer('service')
  const yardstick = useCreateYardstick()
  const { stored } = wire

  // Closed after the test, unless the test closed it.
  const startOnPeer = async (env: Readonly<Record<string, string>> = {}, uriOptions = TEST_URI_OPTIONS): Promise<RunningService> => {
    const service = await startServiceOn(`${wire.peer.uri}&${uriOptions}`, wire.dbName, env)
    let closed: Promise<void> | undefined
    return wire.closeAfter({ ...service, close: () => (closed ??= service.close()) })
  }
  const readyz = (url: string) => fetch(`${url}/readyz`)

  describe('MongoDB unreachable or slow', function () {
    it('starts while MongoDB is down: 503 until it comes up, then 200, all by itself', async function () {
      await wire.peer.goDown()
      const { url } = await startOnPeer()
      await expectErrorDocument(await readyz(url), 503)
      const { result: refused, ms } = await timed(() => postPlant(url, '{"id":1,"name":"Monstera"}'))
      const message = await expectErrorDocument(refused, 503)
      expect(ms).to.be.below(answerBoundMs(DEADLINE_MS, yardstick()))
      expect(message).to.not.match(/mongo|127\.0\.0\.1|ECONN|topology|selection/i)
      await wire.peer.comeBack()
      await eventuallyStatus(() => readyz(url), 200)
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera"}'), { name: 'Monstera' })
      expect(stored()).to.have.length(1)
    })

    it('answers 503 within the deadline while MongoDB is down, and 200 again once it is back', async function () {
      const { url } = await startOnPeer()
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera"}'), { name: 'Monstera' })
      await wire.peer.goDown()
      const { result: refused, ms } = await timed(() => postPlant(url, '{"id":2,"name":"Fern"}'))
      await expectErrorDocument(refused, 503)
      expect(ms).to.be.below(answerBoundMs(DEADLINE_MS, yardstick()))
      await expectErrorDocument(await readyz(url), 503)
      await wire.peer.comeBack()
      await eventuallyStatus(() => postPlant(url, '{"id":2,"name":"Fern"}'), 200)
      expect(stored()).to.have.length(2)
    })

    it('answers 503 within the deadline when MongoDB does not answer in time', async function () {
      const { url } = await startOnPeer()
      expect((await readyz(url)).status).to.equal(200)
      wire.peer.faults.inject('insert', { kind: 'delayReply', ms: 30_000 })
      const { result: refused, ms } = await timed(() => postPlant(url, '{"id":1,"name":"Monstera"}'))
      await expectErrorDocument(refused, 503)
      expect(ms).to.be.below(answerBoundMs(DEADLINE_MS, yardstick()))
      wire.peer.faults.clear()
      // The slow write did land: the client's retry is a replay.
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera"}'), { name: 'Monstera' })
      expect(stored()).to.have.length(1)
    })

    // A database slow but healthy: one insert per create would answer every one of them in time.
    // The deadline is 1.5 s, or more where the machine needs it: what the fault leaves of it is ten
    // times the slowest of 60 steady creates through the service, with no fault, taken first (the
    // yardstick; ten, as the load of a busy machine moves within the test's 3 s). The connection
    // string names no socketTimeoutMS here, which would have to be at least the deadline.
    it('answers every create 200 while each insert takes 0.6 of the deadline, creates arriving steadily for 3 s', async function () {
      const YARDSTICK_CREATES = 60
      const first = await startOnPeer()
      let yardstickId = 100_000
      const yardstick = await yardstickMs(YARDSTICK_CREATES, 15, async () =>
        (await postPlant(first.url, `{"id":${(yardstickId += 1)},"name":"Yardstick"}`)).arrayBuffer(),
      )
      await first.close()
      const deadlineMs = deadlineBeside(1500, 0.6, yardstick, 10)
      // 15 ms apart at the written deadline, spaced in proportion to a longer one, so that as many
      // creates are in flight (about 60: below the pool's 100 and the per-address cap's 100).
      const everyMs = (15 * deadlineMs) / 1500
      this.timeout(15_000 + 3 * deadlineMs + 200 * everyMs)
      const { url } = await startOnPeer({ MONGODB_TIMEOUT_MS: String(deadlineMs) }, 'serverSelectionTimeoutMS=1000&connectTimeoutMS=500')
      await eventuallyStatus(() => readyz(url), 200)
      wire.peer.faults.inject('insert', { kind: 'delayReply', ms: 0.6 * deadlineMs })
      const start = performance.now()
      const statuses = await Promise.all(
        Array.from({ length: 200 }, async (_, index) => {
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + index * everyMs - performance.now())))
          try {
            const response = await postPlant(url, `{"id":${index + 1},"name":"Steady ${index + 1}"}`)
            await response.arrayBuffer()
            return response.status
          } catch (error) {
            return String(error)
          }
        }),
      )
      expect(statuses.filter((status) => status !== 200), 'answers other than 200').to.deep.equal([])
      expect(stored()).to.have.length(200 + YARDSTICK_CREATES)
    })

    it('is not ready while readiness\'s hello takes longer than a probe waits (1 s), though creates still succeed', async function () {
      const { url } = await startOnPeer()
      expect((await readyz(url)).status).to.equal(200)
      wire.peer.faults.inject('hello', { kind: 'delayReply', ms: 2500 }, Infinity, sentByAnOperation)
      // The last answer serves /readyz for a second: storage is asked at most once a second.
      await new Promise((resolve) => setTimeout(resolve, DEFAULT_READINESS_MAX_AGE_MS))
      const { result: notReady, ms } = await timed(() => readyz(url))
      await expectErrorDocument(notReady, 503)
      expect(ms).to.be.below(answerBoundMs(1000, yardstick(), 500))
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera"}'), { name: 'Monstera' })
      wire.peer.faults.clear()
      await eventuallyStatus(() => readyz(url), 200)
    })

    it('keeps an ordinary create to its own deadline when it waits for the busy connection with a create whose body came late', async function () {
      // One connection, every majority 0.3 of the deadline late. C's head comes first and its
      // body half a deadline later (a slow upload), so C has half its time left when it waits,
      // beside an ordinary create B, behind a blocker A that holds the connection. B has its
      // whole deadline: it is stored and answered 200, not cut short by C's deadline; C is
      // answered by its own deadline, and not before it.
      this.timeout(120_000)
      let roomMs = Infinity
      await inRunsWithRoom(this, () => roomMs, async () => {
        wire.peer.faults.clear()
        const deadlineMs = deadlineBeside(1000, 0.6, yardstick(), 10)
        roomMs = 0.1 * deadlineMs
        const id = (Date.now() % 1_000_000) * 10
        const service = await startOnPeer({ MONGODB_TIMEOUT_MS: String(deadlineMs) }, `${TEST_URI_OPTIONS}&maxPoolSize=1`)
        try {
          await eventuallyStatus(() => readyz(service.url), 200)
          wire.peer.faults.inject('insert', { kind: 'replicationLag', ms: 0.3 * deadlineMs })
          const cStarted = performance.now()
          const c = postWithLateBody(service.url, `{"id":${id + 3},"name":"Late body"}`, 0.5 * deadlineMs)
          await new Promise((resolve) => setTimeout(resolve, 0.45 * deadlineMs))
          const a = postPlant(service.url, `{"id":${id + 1},"name":"Blocker"}`)
          await new Promise((resolve) => setTimeout(resolve, 0.05 * deadlineMs))
          const { result: b, ms: bMs } = await timed(() => postPlant(service.url, `{"id":${id + 2},"name":"Ordinary"}`))
          expect((await a).status, 'A, the blocker').to.equal(200)
          expect(b.status, `B, answered after ${Math.round(bMs)} ms of its ${deadlineMs}`).to.equal(200)
          const cAnswer = await c
          const cMs = cAnswer.at - cStarted
          if (cAnswer.status !== 200) {
            expect(cAnswer.status, 'C').to.equal(503)
            expect(cMs, 'C answered 503 by its own deadline, not before it').to.be.at.least(deadlineMs - 1)
          }
          expect(cMs, 'C answered by its own deadline').to.be.below(answerBoundMs(deadlineMs, yardstick(), 0.1 * deadlineMs))
          expect(stored().map(({ _id }) => String(_id))).to.include.members([String(id + 1), String(id + 2)])
        } finally {
          await service.close()
        }
      })
    })

    it('loses nothing and stores nothing twice when the connection drops in the middle of an insert', async function () {
      const { url } = await startOnPeer()
      wire.peer.faults.inject('insert', { kind: 'dropAfterRun' }, 1)
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera"}'), { name: 'Monstera' })
      await expectPlant(await postPlant(url, '{"id":1,"name":"Monstera"}'), { name: 'Monstera' })
      expect(stored()).to.deep.equal([{ _id: Long.fromBigInt(1n), name: 'Monstera' }])
    })
  })

  describe('MongoDB flapping under load', function () {
    // The run: down 1 s, up 1.5 s, eight times, while 50 clients create plants. The
    // bound after the last flap leaves room for the client to be replaced (two deadlines) and
    // one more deadline, and 5 s (or ten yardsticks) on a busy machine.

    it('50 clients: no 500 from the API or /readyz, every 200 stored exactly once, and ready again within a bound after the last flap', async function () {
      this.timeout(90_000)
      const RECOVERY_BOUND_MS = answerBoundMs(2 * DEADLINE_MS + DEADLINE_MS, yardstick(), 5000)
      // fetch's connection pool has no bound, and the creates of one batch are answered at the
      // same moment: a client sends its next request before the pool has read the answers that
      // free the other connections, so the pool opens more, past the default cap of 100 per
      // address. That cap is not what this test is about (connection-slots.test.ts is).
      const { url } = await startOnPeer({ MAX_CONNECTIONS_PER_ADDRESS: '1000' })
      const statuses = new Map<number, number>()
      const acknowledged = new Map<string, string>()
      let nextId = 0
      const stop = new AbortController()
      const client = async (): Promise<void> => {
        while (!stop.signal.aborted) {
          nextId += 1
          const id = nextId
          const response = await postPlant(url, `{"id":${id},"name":"plant ${id}"}`)
          await response.arrayBuffer()
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
          if (response.status === 200) acknowledged.set(String(id), `plant ${id}`)
        }
      }
      const readiness = new Map<number, number>()
      const prober = async (): Promise<void> => {
        while (!stop.signal.aborted) {
          const status = (await readyz(url)).status
          readiness.set(status, (readiness.get(status) ?? 0) + 1)
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
      const clients = [...Array.from({ length: 50 }, client), prober()]
      await new Promise((resolve) => setTimeout(resolve, 500))
      await flap(wire.peer, OBSERVED_FLAPPING)
      const lastFlap = performance.now()
      await eventuallyStatus(() => readyz(url), 200, RECOVERY_BOUND_MS)
      await eventuallyStatus(() => postPlant(url, '{"id":-1,"name":"after the flapping"}'), 200, RECOVERY_BOUND_MS)
      const recoveredMs = performance.now() - lastFlap
      stop.abort()
      await Promise.all(clients)

      expect([...statuses.keys()].filter((status) => status !== 200 && status !== 503), JSON.stringify([...statuses])).to.deep.equal([])
      expect(recoveredMs).to.be.below(RECOVERY_BOUND_MS)
      // Readiness never answered a 500. It asks storage once a second, so an outage of one second
      // may pass between two of its probes; it was ready again once MongoDB was (checked above).
      expect([...readiness.keys()].filter((status) => status !== 200 && status !== 503), JSON.stringify([...readiness])).to.deep.equal([])
      const byId = new Map<string, number>()
      for (const document of stored()) byId.set(String(document._id), (byId.get(String(document._id)) ?? 0) + 1)
      const names = new Map(stored().map((document) => [String(document._id), document.name as unknown]))
      const lost = [...acknowledged].filter(([id, name]) => byId.get(id) !== 1 || names.get(id) !== name)
      expect(lost, 'acknowledged plants not stored exactly once').to.deep.equal([])
      expect(acknowledged.size).to.be.above(0)
    })
  })

  describe('transient answers from MongoDB', function () {
    it('answers 503, not 500, to WriteConflict, Interrupted and LockTimeout, and stores on the retry', async function () {
      const { url } = await startOnPeer()
      for (const [index, { code, codeName, errmsg }] of TRANSIENT_SERVER_ERRORS.slice(0, 3).entries()) {
        wire.peer.faults.inject('insert', serverError(code, codeName, errmsg), 1)
        const body = `{"id":${index + 1},"name":"Monstera"}`
        await expectErrorDocument(await postPlant(url, body), 503)
        await expectPlant(await postPlant(url, body), { name: 'Monstera' })
      }
      expect(stored()).to.have.length(3)
    })
  })

  describe('a configuration fault', function () {
    it('a refused credential: 503, logged at error level with its cause, counted as misconfigured, named by /readyz', async function () {
      const log = makeMemoryLogger()
      const uri = `${wire.peer.uri.replace('mongodb://', 'mongodb://plants:wrong@')}&authSource=admin&${TEST_URI_OPTIONS}`
      const config = expectRight(
        loadConfig({ PORT: '0', HOST: '127.0.0.1', PLANT_STORE_TOKENS: TOKEN, MONGODB_URI: uri, MONGODB_DB: wire.dbName, SHUTDOWN_DRAIN_MS: '0', METRICS_PORT: '0' }),
      )
      let metricsUrl = ''
      const service = expectRight(
        await startService(config, log, (_message, fields) => (metricsUrl = String(fields?.['metricsUrl'] ?? metricsUrl))),
      )
      wire.closeAfter(service)
      const refused = await expectErrorDocument(await postPlant(service.url, '{"id":1,"name":"Monstera"}'), 503)
      expect(refused).to.match(/configuration: MongoDB refused the credential .*An operator must correct it\.$/)
      expect(refused).to.not.include('wrong')
      const line = log.lines.find((entry) => entry.route === '/plants')
      expect(line).to.include({ level: 'error', status: 503 })
      expect(line?.msg).to.match(/^request refused: storage configuration fault: MongoDB refused the credential/)
      expect(line?.cause).to.equal('MongoServerError: Authentication failed.')
      const named = await expectErrorDocument(await readyz(service.url), 503)
      expect(named).to.match(/AuthenticationFailed, 18/)
      const samples = parsePrometheusText(await (await fetch(metricsUrl)).text())
      const calls = 'plant_store_storage_call_duration_seconds_count'
      expect(valueOf(samples, calls, { operation: 'insert', outcome: 'misconfigured' })).to.equal(1)
      expect(valueOf(samples, calls, { operation: 'insert', outcome: 'unavailable' })).to.equal(0)
      expect(stored()).to.deep.equal([])
    })
  })

  describe('shutdown', function () {
    it('finishes a request in flight before it closes MongoDB on shutdown', async function () {
      const service = await startOnPeer()
      expect((await readyz(service.url)).status).to.equal(200)
      wire.peer.faults.inject('insert', { kind: 'delayReply', ms: 300 }, 1)
      const inFlight = postPlant(service.url, '{"id":1,"name":"Monstera"}')
      await new Promise((resolve) => setTimeout(resolve, 100))
      await Promise.all([service.close(), expectPlant(await inFlight, { name: 'Monstera' })])
      expect(stored()).to.have.length(1)
    })
  })
})

describe('the service on the wire peer', function () {
  let peer: MongoPeer | undefined
  const running = (): MongoPeer => {
    if (peer === undefined) throw new Error('the peer did not start')
    return peer
  }
  before(async function () {
    peer = await startMongoPeer()
  })
  after(async function () {
    await peer?.stop()
  })

  // Stored documents are read through the driver, as on a real mongod.
  serviceContract('the wire peer', { uri: () => `${running().uri}&${TEST_URI_OPTIONS}`, documents: storedDocuments })
})

/** Asks again until the answer has `status`, failing after `withinMs` (a few seconds). */
const eventuallyStatus = async (ask: () => Promise<Response>, status: number, withinMs = 8000): Promise<void> => {
  const until = Date.now() + withinMs
  for (;;) {
    const response = await ask()
    if (response.status === status) return
    await response.arrayBuffer()
    if (Date.now() > until) expect.fail(`still ${response.status} instead of ${status}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

// A POST whose head is sent at once and whose body follows `bodyAfterMs` later: a slow upload.
const postWithLateBody = (url: string, body: string, bodyAfterMs: number): Promise<{ readonly status: number; readonly at: number }> =>
  new Promise((resolve, reject) => {
    const sent = request(`${url}/plants`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    })
    sent.on('error', reject)
    sent.on('response', (answer) => {
      const at = performance.now()
      answer.resume()
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, at }))
    })
    sent.flushHeaders()
    setTimeout(() => sent.end(body), bodyAfterMs)
  })
