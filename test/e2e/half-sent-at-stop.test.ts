import { expect } from 'chai'
import { useCurrentBuild } from '../support/current-build.js'
import { finalResponses, openRaw, type RawConnection } from '../support/raw-http.js'
import { startServiceProcess } from '../support/service-process.js'

// A client still sending its headers or its body when the service stops accepting would hold the
// shutdown for the whole grace period (10 s here). Its connection is cut instead, and the service stops
// as soon as the answers in flight are done.

const TOKEN = 'half-sent-token-0123456789'

describe('requests still on their way when the listener closes', function () {
  this.timeout(30_000)
  useCurrentBuild()

  for (const [label, halfSent] of [
    ['a body', (i: number) => `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id":${i},`],
    ['headers', () => `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\n`],
    [
      'a body announced with Expect: 100-continue',
      (i: number) =>
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n{"id":${i},`,
    ],
  ] as const) {
    it(`are cut, so a stop with a 10 s grace ends in well under it, with status 0: ${label}`, async function () {
      const service = startServiceProcess({
        PLANT_STORE_TOKENS: TOKEN,
        SHUTDOWN_DRAIN_MS: '200',
        SHUTDOWN_GRACE_MS: '10000',
        HEADERS_TIMEOUT_MS: '20000',
        REQUEST_TIMEOUT_MS: '20000',
      })
      const slow: RawConnection[] = []
      try {
        const url = await service.listening
        for (let i = 0; i < 3; i += 1) {
          const connection = await openRaw(url)
          connection.write(halfSent(i))
          slow.push(connection)
        }
        await new Promise((resolve) => setTimeout(resolve, 300))
        const signalled = performance.now()
        service.child.kill('SIGTERM')
        expect(await service.exited).to.equal(0)
        expect(performance.now() - signalled, 'ms from SIGTERM to exit').to.be.below(3000)
      } finally {
        for (const connection of slow) connection.socket.destroy()
        await service.stop('SIGKILL')
      }
    })
  }
})

describe('a connection accepted just before the listener closes', function () {
  this.timeout(30_000)
  useCurrentBuild()

  it('is answered when its request follows, with Connection: close, not reset', async function () {
    const service = startServiceProcess({ PLANT_STORE_TOKENS: TOKEN, SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_GRACE_MS: '10000' })
    try {
      const url = await service.listening
      const connection = await openRaw(url)
      // Accepted by the server: a request on another connection is answered after it.
      expect((await fetch(`${url}/healthz`)).status).to.equal(200)
      service.child.kill('SIGTERM')
      await new Promise((resolve) => setTimeout(resolve, 300))
      const body = '{"id":7,"name":"Fern"}'
      connection.write(
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      )
      await connection.closed
      const [answer] = finalResponses(connection.received())
      expect(answer?.status, connection.received()).to.equal(200)
      expect(answer?.headers['connection']).to.equal('close')
      expect(await service.exited).to.equal(0)
    } finally {
      await service.stop('SIGKILL')
    }
  })
})
