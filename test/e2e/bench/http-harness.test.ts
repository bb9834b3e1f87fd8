import { expect } from 'chai'
import { readFileSync, realpathSync } from 'node:fs'
import { autocannonLoad } from '../../../bench/http/autocannon.js'
import { buildReferenceServers } from '../../../bench/http/build-references.js'
import { makeIdRanges, measure } from '../../../bench/http/measure.js'
import { allowedCores, planPinning } from '../../../bench/http/pinning.js'
import type { ServerKey } from '../../../bench/http/options.js'
import type { ServerProcess } from '../../../bench/http/processes.js'
import { serverUnderTest, TOKEN } from '../../../bench/http/servers-under-test.js'
import { makeWrkLoad, wrkVersion } from '../../../bench/http/wrk.js'
import { FRESH, MIXED, type Workload } from '../../../bench/http/workload.js'
import { reportPending } from '../../support/pending.js'
import { installTools } from '../../support/tools.js'

// The benchmark itself is not part of npm test (it takes minutes and asserts no time); this
// checks that its harness starts, loads and stops a server, and that the references do the work.
describe('the HTTP benchmark harness', function () {
  this.timeout(30_000)
  let where: { referencesDir: string; logDir: undefined; serviceEnv: Record<string, string> }
  let running: ServerProcess | undefined

  before(function () {
    // The references' Fastify and Express, and autocannon, come with bench's own install, made by
    // the first run that needs it.
    this.timeout(120_000)
    const bench = installTools('bench')
    if ('missing' in bench) {
      reportPending('the HTTP benchmark harness', bench.missing)
      this.skip()
    }
    where = { referencesDir: buildReferenceServers(), logDir: undefined, serviceEnv: {} }
  })
  afterEach(async () => {
    await running?.stop()
    running = undefined
  })

  const post = (url: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/plants`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', ...headers },
      body,
    })

  for (const key of ['node-http', 'koa', 'koa-same-work', 'fastify', 'express', 'koa-mongodb'] satisfies ServerKey[]) {
    it(`starts the ${key} reference, which checks, stores and answers as the service does, and stops it`, async () => {
      running = await serverUnderTest(key, where).start('test')
      const { url } = running
      const created = await post(url, '{"id":7,"name":"Fern","tag":"pteridophyte","extra":1}')
      expect(created.status).to.equal(200)
      expect(created.headers.get('content-type')).to.match(/^application\/json\b/)
      expect(await created.json()).to.deep.equal({ name: 'Fern', tag: 'pteridophyte' })
      expect((await post(url, '{"id":7,"name":"Fern","tag":"pteridophyte"}')).status).to.equal(200)
      expect((await post(url, '{"id":7,"name":"Moss"}')).status).to.equal(409)
      expect((await post(url, '{"id":8,"name":"x"}', { Authorization: 'Bearer wrong-token-0123456789' })).status).to.equal(401)
      expect((await post(url, '{"id":8,"name":"x"}', { 'Content-Type': 'text/plain' })).status).to.equal(415)
      expect((await post(url, '{"id":8.5,"name":"x"}')).status).to.equal(400)
      expect((await post(url, `{"id":8,"name":"${'x'.repeat(70_000)}"}`)).status).to.equal(413)

      const { pid } = running
      await running.stop()
      running = undefined
      expect(() => process.kill(pid, 0)).to.throw()
    })
  }

  it('starts a server on the core the plan gives it, when taskset works and two cores are allowed', async function () {
    const plan = planPinning(allowedCores())
    if (plan.server === undefined) {
      reportPending('pinning a benchmark server', plan.description)
      this.skip()
    }
    running = await serverUnderTest('koa-floor', { ...where, serverCores: plan.server }).start('test')
    const status = readFileSync(`/proc/${running.pid}/status`, 'utf8')
    expect(/^Cpus_allowed_list:\s*(\S+)$/m.exec(status)?.[1]).to.equal(plan.server)
    // The program the pid runs (its name is no witness: Node 26 names its main thread node-MainThread).
    expect(realpathSync(`/proc/${running.pid}/exe`), 'the pid is the server, not taskset').to.equal(realpathSync(process.execPath))
    expect((await post(running.url, '{"id":7,"name":"Fern"}')).status).to.equal(200)
  })

  it("starts Koa's floor, which answers a POST with a fixed plant whatever it is sent", async () => {
    running = await serverUnderTest('koa-floor', where).start('test')
    const answer = await post(running.url, '{"id":7,"name":"Fern"}')
    expect(answer.status).to.equal(200)
    expect(await answer.json()).to.deep.equal({ name: 'Plant', tag: 'bench' })
  })

  // The mix with a short lag, so that a one-second run holds many replays and conflicts.
  const quickMix: Workload = { ...MIXED, lag: 20 }
  const loads = [
    { name: 'autocannon', load: autocannonLoad },
    ...(wrkVersion() === undefined ? [] : [{ name: 'wrk', load: makeWrkLoad(wrkVersion() ?? '') }]),
  ]
  for (const { name, load } of loads) {
    it(`sends the mixed workload from ${name}: conflicts answered 409, replays 200, as the description says`, async () => {
      running = await serverUnderTest('koa', where).start('test')
      const result = await load.run(running.url, TOKEN, { threads: 1, connections: 4, durationSeconds: 1 }, 1, quickMix)
      expect(result.requests).to.be.greaterThan(500)
      expect(result.socketErrors).to.equal(0)
      // Every 100 requests hold 10 conflicts once 20 fresh ids were sent; replays are answered 200.
      expect(result.non2xx / result.requests).to.be.within(0.08, 0.11)
      const fresh = await load.run(running.url, TOKEN, { threads: 1, connections: 4, durationSeconds: 1 }, 1e9, FRESH)
      expect(fresh.non2xx).to.equal(0)
    })
  }

  it('measures a reference under load: answers, latency, CPU time and RSS of the server process', async () => {
    running = await serverUnderTest('node-http', where).start('test')
    const version = wrkVersion()
    const m = await measure(running, FRESH, {
      load: version === undefined ? autocannonLoad : makeWrkLoad(version),
      shape: { threads: 1, connections: 4, durationSeconds: 1 },
      warmupSeconds: 0,
      ids: makeIdRanges(),
      progress: () => {},
    })
    expect(m.requests).to.be.greaterThan(0)
    expect(m.non2xx).to.equal(0)
    expect(m.socketErrors).to.equal(0)
    expect(m.stored).to.equal(m.requests)
    expect(m.p99Ms).to.be.at.least(m.p50Ms)
    if (process.platform === 'linux') {
      expect(m.cpuUsPerRequest).to.be.greaterThan(0)
      expect(m.rssBytes).to.be.greaterThan(1 << 20)
    }
  })
})
