import { expect } from 'chai'
import { once } from 'node:events'
import { checkRawExchange } from '../../../../support/traffic-check.js'
import { openRaw, rawExchange, type RawConnection } from '../../../../support/raw-http.js'
import { useTestApp } from '../../../../support/http-app.js'

// The answers the server gives before any route reads a request, which /openapi.json lists on
// every operation: 501 for a transfer coding it does not read or a method no server implements,
// and 503 for a connection past its client's share. Each is asked of every path, so the traffic
// check sees each documented answer produced, and each answer is an Error document.
const PATHS: ReadonlyArray<{ readonly method: string; readonly path: string }> = [
  { method: 'POST', path: '/plants' },
  { method: 'GET', path: '/openapi.json' },
  { method: 'GET', path: '/docs' },
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/readyz' },
  { method: 'GET', path: '/no-such-path' },
]

const statusOf = (reply: string): number => Number(/^HTTP\/1\.1 (\d{3}) /.exec(reply)?.[1])

describe('refusals made before a route, on every path', function () {
  this.timeout(20_000)
  const SHARE = 2
  const served = useTestApp(() => ({}), { maxConnectionsPerAddress: SHARE })

  for (const { method, path } of PATHS) {
    it(`${method} ${path} with Transfer-Encoding: gzip, chunked: 501, naming the transfer coding it reads`, async function () {
      const reply = await rawExchange(
        served.url,
        `${method} ${path} HTTP/1.1\r\nHost: plants.test\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`,
      )
      expect(statusOf(reply), reply).to.equal(501)
      expect(reply).to.include('The only transfer coding this service reads is chunked')
    })

    it(`${method} ${path} on a connection past its client's share: 503 with Retry-After, unread`, async function () {
      const held: RawConnection[] = []
      try {
        for (let index = 0; index < SHARE; index += 1) held.push(await openRaw(served.url))
        const request = `${method} ${path} HTTP/1.1\r\nHost: plants.test\r\nContent-Length: 0\r\n\r\n`
        const extra = await openRaw(served.url)
        extra.write(request)
        await Promise.race([extra.closed, once(extra.socket, 'end')])
        const reply = extra.received()
        await checkRawExchange(served.url, request, reply)
        expect(statusOf(reply), reply).to.equal(503)
        expect(reply).to.match(/\r\nRetry-After: 1\r\n/i)
        expect(reply).to.include('holds as many connections as it may')
      } finally {
        for (const connection of held) connection.socket.destroy()
      }
    })
  }

  for (const { path } of PATHS) {
    it(`BREW ${path}, a method no server implements: 501 naming the methods it serves`, async function () {
      const reply = await rawExchange(served.url, `BREW ${path} HTTP/1.1\r\nHost: plants.test\r\nConnection: close\r\n\r\n`)
      expect(statusOf(reply), reply).to.equal(501)
      expect(reply).to.include('This service does not implement the request method')
    })
  }
})
