import { expect } from 'chai'
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHttpApp, DEFAULT_HTTP_SERVER_LIMITS } from '../../../../adapters/http/index.js'
import { makeInMemoryPlantStore } from '../../../../adapters/in-memory/index.js'
import { makeStaticTokenAuthenticator } from '../../../../adapters/static-tokens/index.js'
import { expectOneRawErrorDocument, rawExchange } from '../../../support/raw-http.js'

// Koa's habit, `app.listen(port)`, serves the app with the protections createHttpServer gives it:
// Error documents for what Node's parser refuses, and its bounds, where a bare Node server
// answered a bodiless 400 or 431 and bounded nothing.
describe("the app served by Koa's own listen", function () {
  this.timeout(30_000)
  let server: Server | undefined
  let url = ''
  before(async function () {
    const app = createHttpApp({ plantStore: makeInMemoryPlantStore(), authenticator: makeStaticTokenAuthenticator(['app-listen-token-0123456789']) })
    server = app.listen(0, '127.0.0.1')
    await once(server, 'listening')
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(function () {
    server?.closeAllConnections()
    server?.close()
  })

  it('answers what the parser refuses with an Error document', async function () {
    expectOneRawErrorDocument(await rawExchange(url, 'garbage garbage\r\n\r\n'), 400)
    expectOneRawErrorDocument(await rawExchange(url, `GET /healthz HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(17_000)}\r\n\r\n`), 431)
  })

  it("holds createHttpServer's default time bounds", function () {
    expect(server?.headersTimeout).to.equal(DEFAULT_HTTP_SERVER_LIMITS.headersTimeoutMs)
    expect(server?.requestTimeout).to.equal(DEFAULT_HTTP_SERVER_LIMITS.requestTimeoutMs)
    expect(server?.keepAliveTimeout).to.equal(DEFAULT_HTTP_SERVER_LIMITS.keepAliveTimeoutMs)
  })
})
