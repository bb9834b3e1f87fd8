import { expect } from 'chai'
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { createPlantStoreClient } from '../../../../adapters/http-client/index.js'
import { expectLeftTag } from '../../../support/either.js'

// A server that is not the service, or is hostile: the client reads no more of an answer than
// the API ever sends, within its timeout, and trusts no Retry-After beyond an hour.
describe('plant-store/client against a hostile server', function () {
  let server: Server | undefined
  const serve = async (respond: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> => {
    server = createServer(respond)
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }
  afterEach(async function () {
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
    server = undefined
  })
  const create = async (url: string, timeoutMs = 5000) => ({
    result: await createPlantStoreClient({ baseUrl: url, token: 'hostile-test-token', timeoutMs }).createPlant({ id: 1n, name: 'x' })(),
  })

  it('refuses a declared 4 GiB body at once, without reading it', async function () {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(4 * 1024 ** 3) })
      res.write('{"name":"')
    })
    // The body never ends: read, it would end in a Timeout, not in this.
    const { result } = await create(url)
    expect(expectLeftTag(result, 'UnexpectedResponse').detail).to.match(/larger than the 65536 bytes/)
  })

  it('stops reading an endless body at the bound', async function () {
    let sent = 0
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      const chunk = Buffer.alloc(16 * 1024, 0x20)
      const pump = (): void => {
        while (!res.destroyed && sent < 512 * 1024 * 1024 && res.write(chunk)) sent += chunk.length
        if (!res.destroyed) res.once('drain', pump)
      }
      pump()
    })
    const { result } = await create(url)
    expect(expectLeftTag(result, 'UnexpectedResponse').detail).to.match(/larger than/)
    expect(sent, 'bytes the server managed to send').to.be.below(64 * 1024 * 1024)
  })

  it('does not inflate a gzip bomb past the bound', async function () {
    const bomb = gzipSync(Buffer.alloc(256 * 1024 * 1024, 0x20))
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) })
      res.end(bomb)
    })
    const before = process.memoryUsage().rss
    const { result } = await create(url)
    expect(expectLeftTag(result, 'UnexpectedResponse').detail).to.match(/larger than/)
    expect(process.memoryUsage().rss - before, 'RSS growth').to.be.below(128 * 1024 * 1024)
  })

  it('times out a body that trickles past the timeout, counting the body', async function () {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.write('{')
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 100)
    })
    // The body drips for ever: only a time-out counting it ends the call (the rule's edges are
    // test/unit/adapters/http-client/client-timeout.test.ts's, on virtual time).
    const { result } = await create(url, 500)
    expect(expectLeftTag(result, 'TransportFailure').reason).to.equal('Timeout')
  })

  it('reads a Retry-After of 10^20 seconds as an hour', async function () {
    const url = await serve((_req, res) => {
      res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '99999999999999999999' })
      res.end(JSON.stringify({ error: 503, message: 'Storage is unavailable; try again shortly.' }))
    })
    const { result } = await create(url)
    expect(expectLeftTag(result, 'StorageUnavailable').retryAfterSeconds).to.equal(3600)
  })
})
