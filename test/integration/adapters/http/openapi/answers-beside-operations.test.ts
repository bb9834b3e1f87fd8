import { expect } from 'chai'
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { openApiDocument } from '../../../../../adapters/http/openapi/document.js'
import { HTTP_METHODS } from '../../../../../adapters/http/openapi/document-shape.js'
import { createHttpApp, createHttpServer } from '../../../../../adapters/http/index.js'
import { useTestApp } from '../../../../support/http-app.js'
import { TEST_BODY_LIMIT_BYTES } from '../../../../support/limits.js'
import { rawExchange as raw } from '../../../../support/raw-http.js'
import { checkTrafficOf, forgetTrafficOf } from '../../../../support/traffic-check.js'
import { expectErrorDocument } from '../../../../support/responses.js'

// The answers the document gives every path: 405 to each method it does not serve, and what
// Node's parser, the Host check or the Expect check answers, whatever the path (400, 408, 417,
// 431). Driven by the
// document, so a new path is covered as soon as it is listed.
const document = openApiDocument('', { bodyLimitBytes: TEST_BODY_LIMIT_BYTES })
const served = Object.entries(document.paths).map(([path, item]) => ({
  path,
  methods: HTTP_METHODS.filter((method) => item[method] !== undefined),
}))
const UNKNOWN = '/no-such-path'

describe('answers beside the operations', function () {
  const app = useTestApp()

  for (const { path, methods } of served) {
    const others = HTTP_METHODS.filter((m) => !methods.includes(m) && !(m === 'head' && methods.includes('get')))
    it(`answers 405 with Allow to ${others.join(', ')} on ${path}`, async function () {
      for (const method of others) {
        // fetch refuses to send TRACE; a raw request carries it.
        if (method === 'trace') {
          expect(await raw(app.url, `TRACE ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).to.match(/^HTTP\/1\.1 405 /)
          continue
        }
        const response = await fetch(`${app.url}${path}`, { method: method.toUpperCase() })
        if (method === 'head') expect(response.status, method).to.equal(405)
        else await expectErrorDocument(response, 405)
      }
    })

    const method = (methods[0] ?? 'get').toUpperCase()
    it(`answers ${method} ${path} with headers that are too large with 431`, async function () {
      const reply = await raw(app.url, `${method} ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)
      expect(reply).to.match(/^HTTP\/1\.1 431 /)
    })

    it(`answers ${method} ${path} with an expectation other than 100-continue with 417`, async function () {
      const reply = await raw(app.url, `${method} ${path} HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
      expect(reply).to.match(/^HTTP\/1\.1 417 /)
    })

    it(`answers ${method} ${path} without Host with 400`, async function () {
      const reply = await raw(app.url, `${method} ${path} HTTP/1.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
      expect(reply).to.match(/^HTTP\/1\.1 400 /)
    })
  }

  it('answers headers that are too large on an unknown path with 431, and no Host with 400', async function () {
    expect(await raw(app.url, `GET ${UNKNOWN} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)).to.match(
      /^HTTP\/1\.1 431 /,
    )
    expect(await raw(app.url, `GET ${UNKNOWN} HTTP/1.1\r\nConnection: close\r\n\r\n`)).to.match(/^HTTP\/1\.1 400 /)
    expect(await raw(app.url, `GET ${UNKNOWN} HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n`)).to.match(
      /^HTTP\/1\.1 417 /,
    )
  })

  it('answers CONNECT, which names no path of this service, with 501', async function () {
    expect(await raw(app.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')).to.match(/^HTTP\/1\.1 501 /)
  })

  describe('a request that does not arrive in time', function () {
    // The same app and server with short timeouts, so the 408 comes within the test.
    let server: Server
    let url: string
    beforeEach(async function () {
      server = createHttpServer(createHttpApp(app.deps), {
        headersTimeoutMs: 300,
        requestTimeoutMs: 300,
        keepAliveTimeoutMs: 5000,
        maxConnections: 100,
        maxConnectionsPerAddress: 100,
      })
      server.listen(0, '127.0.0.1')
      await once(server, 'listening')
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      await checkTrafficOf(url)
    })
    afterEach(async function () {
      forgetTrafficOf(url)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    })

    for (const { path, methods } of [...served, { path: UNKNOWN, methods: ['get'] }]) {
      const method = (methods[0] ?? 'get').toUpperCase()
      it(`is answered 408 on ${method} ${path}`, async function () {
        // Headers that never end: the parser gives up after the request timeout.
        const reply = await raw(url, `${method} ${path} HTTP/1.1\r\nHost: x\r\n`)
        expect(reply).to.match(/^HTTP\/1\.1 408 /)
      })
    }
  })
})
