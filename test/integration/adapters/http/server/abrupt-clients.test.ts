import { expect } from 'chai'
import { setTimeout as delay } from 'node:timers/promises'
import { makeStaticTokenAuthenticator } from '../../../../../adapters/static-tokens/index.js'
import type { Authenticator } from '../../../../../core/index.js'
import { TOKEN, startTestApp, type TestApp } from '../../../../support/http-app.js'
import { expectOneRawErrorDocument, finalResponses, openRaw, settlesWithin } from '../../../../support/raw-http.js'

// Clients that reset, leave or never stop, met where the reading of a request is most exposed.
describe('clients that reset, leave or never stop', function () {
  this.timeout(20_000)
  let app: TestApp | undefined
  afterEach(async function () {
    await app?.close()
    app = undefined
  })

  const healthy = async (url: string): Promise<void> => {
    expect((await fetch(`${url}/healthz`)).status).to.equal(200)
  }

  it('survives CONNECT clients that reset the connection, at once or after the answer, and goes on serving', async function () {
    app = await startTestApp()
    for (const when of ['at once', 'after the answer']) {
      const connection = await openRaw(app.url)
      connection.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')
      if (when === 'after the answer') await settlesWithin(connection.closed, 1000)
      connection.socket.resetAndDestroy()
      await delay(200)
    }
    await healthy(app.url)
  })

  it('answers 413 to a coded body that decodes to nothing but never ends, having read little of it', async function () {
    app = await startTestApp({ bodyLimitBytes: 1024 })
    const connection = await openRaw(app.url)
    connection.write(
      `POST /plants HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
        'Content-Encoding: deflate\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n\x78\x01\r\n',
    )
    // Empty stored deflate blocks: five bytes each, nothing once decoded.
    const block = Buffer.alloc(5 * 2000)
    for (let i = 0; i < 2000; i++) block.set([0x00, 0x00, 0x00, 0xff, 0xff], i * 5)
    let sent = 0
    while (!connection.socket.destroyed && connection.received() === '' && sent < 5_000_000) {
      connection.socket.write(`${block.length.toString(16)}\r\n`)
      connection.socket.write(block)
      connection.socket.write('\r\n')
      sent += block.length
      await delay(1)
    }
    await settlesWithin(connection.closed, 2000)
    expect(finalResponses(connection.received()).map((r) => r.status)).to.deep.equal([413])
    expect(sent, 'coded bytes sent before the answer').to.be.below(200_000)
  })

  for (const coding of ['identity', 'gzip']) {
    it(`logs a client that left while its token was checked as a body cut short (400), not a failure (${coding})`, async function () {
      const tokens = makeStaticTokenAuthenticator([TOKEN])
      // An authority that takes its time (a key set being fetched, say).
      const unhurried: Authenticator = {
        verify: (token) => async () => {
          await delay(300)
          return tokens.verify(token)()
        },
      }
      app = await startTestApp({ authenticator: unhurried })
      const connection = await openRaw(app.url)
      const encoding = coding === 'identity' ? '' : `Content-Encoding: ${coding}\r\n`
      connection.write(
        `POST /plants HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n${encoding}Content-Length: 30\r\n\r\n{"id":1,`,
      )
      await delay(50)
      connection.socket.destroy()
      await delay(600)
      const lines = app.log.lines.filter((line) => line['route'] === '/plants')
      expect(lines.map((line) => [line['level'], line['status']])).to.deep.equal([['info', 400]])
    })
  }

  it('keeps Connection: close on a 500 answered before the body was read', async function () {
    const broken: Authenticator = {
      verify: () => () => {
        throw new Error('a defect in the authenticator')
      },
    }
    app = await startTestApp({ authenticator: broken })
    const connection = await openRaw(app.url)
    connection.write(
      `POST /plants HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"id":`,
    )
    expect(await settlesWithin(connection.closed, 3000), 'closed by the server').to.equal(true)
    expect(expectOneRawErrorDocument(connection.received(), 500).headers['connection']).to.equal('close')
  })
})
