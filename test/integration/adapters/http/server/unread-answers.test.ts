import { expect } from 'chai'
import { statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { connect, type Socket } from 'node:net'
import type { HttpObserver } from '../../../../../adapters/http/index.js'
import { healthzFrom, settlesWithin } from '../../../../support/raw-http.js'
import { startTestApp, type TestApp } from '../../../../support/http-app.js'

// Clients that send requests and never read the answers. Each must cost the server a bounded
// amount: a bounded number of requests served per connection, and a connection whose answers do
// not move closed after the send timeout, or given up at the cap for a newcomer.

const countingObserver = (): HttpObserver & { readonly served: () => number } => {
  let served = 0
  return { requestFinished: () => void (served += 1), served: () => served }
}

interface UnreadConnection {
  readonly socket: Socket
  /** Starts reading what the server sent, and resolves when the server has closed the connection. */
  readonly readThenClosed: () => Promise<boolean>
  readonly bytesReceived: () => number
}

// A paused socket reads nothing, and so cannot see the server close it either: the test reads it
// only once the server has had its chance to act.
const unreadConnection = (port: number, text: string): UnreadConnection => {
  const socket = connect({ port, host: '127.0.0.1' })
  socket.on('error', () => undefined)
  socket.pause()
  socket.write(text)
  let received = 0
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  return {
    socket,
    readThenClosed: () => {
      socket.on('data', (chunk: Buffer) => (received += chunk.length))
      socket.resume()
      return settlesWithin(closed, 3_000)
    },
    bytesReceived: () => received,
  }
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

const pipelined = (count: number, path: string): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(count)

// Larger than loopback's socket buffers, so a client that reads nothing leaves it on the server.
const BIG_ANSWERS = pipelined(16, '/docs/swagger-ui-bundle.js')

describe('answers nobody reads', function () {
  this.timeout(20_000)
  let app: TestApp | undefined
  afterEach(async function () {
    await app?.close()
    app = undefined
  })

  it('serves at most the bound of requests waiting on one connection, then closes it', async function () {
    const observer = countingObserver()
    app = await startTestApp({ observer }, { maxRequestsWaiting: 16 })
    const port = Number(new URL(app.url).port)
    const before = observer.served()
    const connections = Array.from({ length: 5 }, () => unreadConnection(port, pipelined(2_000, '/healthz')))
    await pause(1_000)
    for (const connection of connections) expect(await connection.readThenClosed(), 'closed by the server').to.equal(true)
    expect(observer.served() - before, 'requests served for 5 x 2,000 pipelined').to.be.at.most(5 * 16)
    expect(await healthzFrom(port)).to.equal(200)
  })

  it('answers every request of a client that pipelines within the bound and reads', async function () {
    app = await startTestApp({}, { maxRequestsWaiting: 16 })
    const port = Number(new URL(app.url).port)
    const socket = connect({ port, host: '127.0.0.1' })
    let received = ''
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk))
    socket.write(pipelined(16, '/healthz'))
    const deadline = Date.now() + 3_000
    while ((received.match(/HTTP\/1\.1 200/g) ?? []).length < 16 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    socket.destroy()
    expect((received.match(/HTTP\/1\.1 200/g) ?? []).length).to.equal(16)
  })

  it('closes a connection whose answer makes no progress for the send timeout', async function () {
    app = await startTestApp({}, { sendTimeoutMs: 500 })
    const port = Number(new URL(app.url).port)
    const connection = unreadConnection(port, BIG_ANSWERS)
    await pause(2_000)
    expect(await connection.readThenClosed(), 'closed by the server').to.equal(true)
    const whole = statSync(createRequire(import.meta.url).resolve('swagger-ui-dist/swagger-ui-bundle.js')).size
    expect(connection.bytesReceived(), 'bytes received before the close').to.be.below(16 * whole)
  })

  for (const [label, localAddress, maxConnections, expected] of [
    ['gives a stalled connection up for a newcomer of another client at the cap', '127.0.0.2', 6, 200],
    ['answers a newcomer of the same client at its share 503 rather than cut one of its own', '127.0.0.1', 12, 503],
  ] as const) {
    it(label, async function () {
      app = await startTestApp({}, { maxConnections, maxConnectionsPerAddress: 6, sendTimeoutMs: 60_000 })
      const port = Number(new URL(app.url).port)
      const stalled = Array.from({ length: 6 }, () => unreadConnection(port, BIG_ANSWERS))
      try {
        // Long enough for their output to stop moving.
        await pause(2_000)
        const statuses: number[] = []
        for (let i = 0; i < 5; i += 1) statuses.push(await healthzFrom(port, localAddress))
        expect(statuses).to.deep.equal(Array.from({ length: 5 }, () => expected))
      } finally {
        for (const { socket } of stalled) socket.destroy()
      }
    })
  }
})
