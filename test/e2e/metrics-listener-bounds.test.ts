import { expect } from 'chai'
import { METRICS_MAX_CONNECTIONS } from '../../apps/server/metrics.js'
import { useCurrentBuild } from '../support/current-build.js'
import { expectOneRawErrorDocument, openRaw, settlesWithin, waitForText, type RawConnection } from '../support/raw-http.js'
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js'

// The metrics listener is a listener like the public one: a client that sends headers too slowly
// gets a 408 Error document within HEADERS_TIMEOUT_MS, not a 72 s hold and a bare 408, and it
// takes a few connections at most.

describe('the metrics listener keeps the public listener\'s bounds', function () {
  this.timeout(30_000)
  useCurrentBuild()
  let service: ServiceProcess | undefined
  let metricsUrl = ''
  const opened: RawConnection[] = []

  before(async function () {
    service = startServiceProcess({
      PLANT_STORE_TOKENS: 'metrics-bounds-token-0123456789',
      METRICS_PORT: '0',
      HEADERS_TIMEOUT_MS: '400',
      REQUEST_TIMEOUT_MS: '800',
      SHUTDOWN_DRAIN_MS: '0',
    })
    await service.listening
    const line = service.stdout().split('\n').find((l) => l.includes('"msg":"listening"')) ?? '{}'
    metricsUrl = (JSON.parse(line) as { metricsUrl: string }).metricsUrl
  })
  after(async function () {
    for (const connection of opened) connection.socket.destroy()
    await service?.stop('SIGTERM')
  })

  it('answers headers that stop coming with a 408 Error document within HEADERS_TIMEOUT_MS, and closes', async function () {
    const connection = await openRaw(metricsUrl)
    opened.push(connection)
    connection.write('GET /metrics HTTP/1.1\r\nHost: x\r\n')
    expect(await settlesWithin(connection.closed, 3000), 'closed by the server').to.equal(true)
    const response = expectOneRawErrorDocument(connection.received(), 408)
    expect(response.headers['x-request-id']).to.be.a('string')
  })

  it(`takes at most ${METRICS_MAX_CONNECTIONS} connections at once: at the cap the longest-waiting gives way`, async function () {
    const first: RawConnection[] = []
    // From addresses of their own: one address past its share would be refused whatever waits.
    for (let i = 0; i < METRICS_MAX_CONNECTIONS; i += 1) first.push(await openRaw(metricsUrl, `127.1.0.${1 + i}`))
    opened.push(...first)
    const extra = await openRaw(metricsUrl)
    opened.push(extra)
    extra.write('GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n')
    await waitForText(extra, /HTTP\/1\.1 200/, 3000)
    expect(await settlesWithin(first[0]?.closed ?? Promise.resolve(), 2000), 'the longest-waiting connection, closed for the newcomer').to.equal(true)
  })
})
