import { expect } from 'chai'
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { MAIN } from '../support/current-build.js'
import { useServiceProcesses } from '../support/service-process.js'
import { parsePrometheusText, valueOf } from '../support/prometheus-text.js'
import { expectErrorDocument, expectPlant } from '../support/responses.js'
import { freePort } from '../support/free-port.js'

const TOKEN = 'e2e-token-0123456789abcdef'
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

const jsonLines = (text: string): ReadonlyArray<Record<string, unknown>> =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/plants`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', ...headers },
    body,
  })


describe('operating the service: logs, request ids and metrics from the running process', function () {
  this.timeout(30_000)
  const startService = useServiceProcesses()

  it('npm start -s prints only JSON lines on stdout, and does not rebuild when dist/ is up to date', async function () {
    // dist/ as `npm test` leaves it: built just now, unless a source was saved since.
    expect(spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: ROOT }).status).to.equal(0)
    const builtAt = statSync(MAIN).mtimeMs
    // npm's own variables are left out: this is `npm start -s` as a person types it (`-s` keeps
    // npm's banner off stdout, as the README says for `npm start -s | jq`).
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')))
    const child = spawn('npm', ['start', '-s'], {
      cwd: ROOT,
      env: { ...env, PORT: '0', HOST: '127.0.0.1', PLANT_STORE_TOKENS: TOKEN, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const closed = once(child, 'close') // the service shares npm's pipes: closed when both are gone
    try {
      while (!stdout.includes('"msg":"listening"')) {
        if (child.exitCode !== null) expect.fail(`npm start exited with ${child.exitCode}: ${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const url = (jsonLines(stdout.slice(0, stdout.indexOf('\n', stdout.indexOf('"msg":"listening"')) + 1)).at(-1) as { url: string })
        .url
      await expectPlant(await post(url, '{"id":1,"name":"Fern"}', { 'X-Request-Id': 'npm-start-1' }), { name: 'Fern' })
    } finally {
      child.kill('SIGTERM')
      await closed
    }
    const lines = jsonLines(stdout) // throws on any line that is not JSON: npm's banner, say
    expect(lines.map((line) => line['msg'])).to.include.members(['listening', 'request', 'stopped'])
    for (const line of lines) expect(line).to.include.keys('level', 'time', 'msg')
    expect(lines.find((line) => line['msg'] === 'request')).to.include({ requestId: 'npm-start-1', route: '/plants', status: 200 })
    expect(statSync(MAIN).mtimeMs, 'dist/ was rebuilt').to.equal(builtAt)
    expect(stderr).to.not.include('building')
  })

  it('logs each request with its id, route, status, duration and subject; echoes the id; LOG_LEVEL filters', async function () {
    const service = startService({ PLANT_STORE_TOKENS: TOKEN })
    const url = await service.listening
    const response = await post(url, '{"id":7,"name":"Moss"}', { 'X-Request-Id': 'trace-abc-123' })
    expect(response.headers.get('x-request-id')).to.equal('trace-abc-123')
    const generated = (await fetch(`${url}/nowhere`)).headers.get('x-request-id')
    await service.stop('SIGTERM')
    const lines = jsonLines(service.stdout())
    const line = lines.find((l) => l['requestId'] === 'trace-abc-123')
    expect(line).to.include({ level: 'info', msg: 'request', method: 'POST', route: '/plants', status: 200, subject: 'static-token-1' })
    expect(line?.['ms']).to.be.a('number')
    expect(lines.find((l) => l['requestId'] === generated)).to.include({ route: 'unmatched', status: 404 })
    expect(service.stdout()).to.not.include(TOKEN)

    const port = await freePort()
    const quietService = startService({ PLANT_STORE_TOKENS: TOKEN, LOG_LEVEL: 'warn', PORT: String(port) })
    const quiet = `http://127.0.0.1:${port}`
    for (;;) {
      const answered = await fetch(`${quiet}/healthz`).then(
        () => true,
        () => false,
      )
      if (answered) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    await expectPlant(await post(quiet, '{"id":8,"name":"Moss"}'), { name: 'Moss' })
    expect(await quietService.stop('SIGTERM')).to.equal(0)
    const quietLines = jsonLines(quietService.stdout())
    expect(quietLines.map((l) => l['msg']), 'under LOG_LEVEL=warn, only where it listens').to.deep.equal(['listening'])
    expect(quietLines[0]).to.include({ url: quiet })
  })

  it('logs a storage outage under the id of the request that met it', async function () {
    const service = startService({
      PLANT_STORE_TOKENS: TOKEN,
      MONGODB_URI: `mongodb://127.0.0.1:${await freePort()}/?serverSelectionTimeoutMS=300`,
      MONGODB_TIMEOUT_MS: '500',
    })
    const url = await service.listening
    const response = await post(url, '{"id":7,"name":"Moss"}', { 'X-Request-Id': 'outage-7' })
    await expectErrorDocument(response, 503)
    expect(response.headers.get('x-request-id')).to.equal('outage-7')
    await service.stop('SIGTERM')
    const lines = jsonLines(service.stdout()).filter((l) => l['requestId'] === 'outage-7')
    expect(lines).to.have.length(1)
    expect(lines[0]).to.include({ level: 'warn', status: 503, route: '/plants' })
    expect(lines[0]?.['cause']).to.be.a('string').and.not.equal('')
  })

  it('serves metrics on METRICS_PORT only, counting the traffic sent', async function () {
    const service = startService({ PLANT_STORE_TOKENS: TOKEN, METRICS_PORT: '0' })
    const url = await service.listening
    const listening = jsonLines(service.stdout()).find((l) => l['msg'] === 'listening') as { metricsUrl?: string }
    const metricsUrl = listening.metricsUrl ?? expect.fail('no metricsUrl in the listening line')
    expect(metricsUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    for (let id = 1; id <= 4; id++) await expectPlant(await post(url, `{"id":${id},"name":"p${id}"}`), { name: `p${id}` })
    for (let id = 1; id <= 2; id++) await expectPlant(await post(url, `{"id":${id},"name":"p${id}"}`), { name: `p${id}` })
    await expectErrorDocument(await post(url, '{"id":3,"name":"other"}'), 409)
    await expectErrorDocument(await post(url, '{"id":9,"name":"x"}', { Authorization: 'Bearer wrong-token-0123456789' }), 401)
    await expectErrorDocument(await fetch(`${url}/metrics`), 404) // the public port exposes nothing new
    // The metrics listener's answers carry X-Request-Id too, and refuse with an Error document.
    const scrape = await fetch(metricsUrl, { headers: { 'X-Request-Id': 'scrape-1' } })
    expect(scrape.headers.get('x-request-id')).to.equal('scrape-1')
    const elsewhere = await fetch(metricsUrl.replace(/\/metrics$/, '/elsewhere'))
    expect(elsewhere.headers.get('x-request-id')).to.be.a('string').with.length.above(0)
    await expectErrorDocument(elsewhere, 404)
    const samples = parsePrometheusText(await scrape.text())
    const requests = (status: string) => valueOf(samples, 'plant_store_http_requests_total', { route: '/plants', method: 'POST', status })
    expect([requests('200'), requests('409'), requests('401')]).to.deep.equal([6, 1, 1])
    expect(valueOf(samples, 'plant_store_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).to.equal(1)
    expect(valueOf(samples, 'plant_store_plants_total', { outcome: 'created' })).to.equal(4)
    expect(valueOf(samples, 'plant_store_plants_total', { outcome: 'replayed' })).to.equal(2)
    expect(valueOf(samples, 'plant_store_plants_total', { outcome: 'conflict' })).to.equal(1)
    expect(valueOf(samples, 'plant_store_storage_call_duration_seconds_count', { operation: 'insert', outcome: 'ok' })).to.equal(7)
    expect(valueOf(samples, 'plant_store_authentications_total', { outcome: 'accepted' })).to.equal(7)
    expect(valueOf(samples, 'plant_store_authentications_total', { outcome: 'refused' })).to.equal(1)
    expect(valueOf(samples, 'plant_store_http_request_duration_seconds_count', { route: '/plants', method: 'POST' })).to.equal(8)
    expect(valueOf(samples, 'process_resident_memory_bytes')).to.be.above(0)
  })

  it('serves no metrics listener unless METRICS_PORT is set', async function () {
    const service = startService({ PLANT_STORE_TOKENS: TOKEN })
    await service.listening
    expect(jsonLines(service.stdout()).find((l) => l['msg'] === 'listening')).to.not.have.property('metricsUrl')
  })
})
