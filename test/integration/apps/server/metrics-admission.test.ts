import { expect } from 'chai'
import { once } from 'node:events'
import { request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DEFAULT_HTTP_SERVER_LIMITS } from '../../../../adapters/http/index.js'
import { METRICS_MAX_CONNECTIONS, prometheusInstrumentation } from '../../../../apps/server/metrics.js'
import { openRaw, type RawConnection } from '../../../support/raw-http.js'

// The metrics listener admits connections by the public listener's rule: one half-sent request
// from each of as many addresses as it has slots cannot keep a scrape out. 127.1.0.x are the
// holders, 127.0.0.1 the scraper (all loopback on Linux).

const scrape = (port: number): Promise<number> =>
  new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/metrics', localAddress: '127.0.0.1', agent: false, timeout: 10_000 }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(0))
    req.end()
  })

describe('the metrics listener at its connection cap', function () {
  let server: Server | undefined
  const held: RawConnection[] = []
  afterEach(async function () {
    for (const connection of held.splice(0)) connection.socket.destroy()
    server?.closeAllConnections()
    if (server !== undefined) await new Promise((resolve) => server?.close(resolve))
  })

  it(`answers scrapes beside a half-sent request from each of ${METRICS_MAX_CONNECTIONS} addresses`, async function () {
    server = prometheusInstrumentation().server(DEFAULT_HTTP_SERVER_LIMITS)
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const url = `http://127.0.0.1:${port}`
    const reopen = async (index: number): Promise<void> => {
      const connection = await openRaw(url, `127.1.0.${1 + index}`)
      connection.write('GET /metrics HTTP/1.1\r\nHost: x\r\n')
      held.push(connection)
      // As the attack did: a holder closed is opened again.
      void connection.closed.then(() => (held.includes(connection) ? reopen(index) : undefined))
    }
    for (let index = 0; index < METRICS_MAX_CONNECTIONS; index += 1) await reopen(index)
    const statuses: number[] = []
    for (let i = 0; i < 6; i += 1) statuses.push(await scrape(port))
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 200])
  })
})
