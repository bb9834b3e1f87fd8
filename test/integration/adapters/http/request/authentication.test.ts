import { expect } from 'chai'
import { connect } from 'node:net'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { makeInMemoryPlantStore, type InMemoryPlantStore } from '../../../../../adapters/in-memory/index.js'
import { authenticationUnavailable, insufficientScope, type Authenticator } from '../../../../../core/index.js'
import { TOKEN, postPlant, useTestApp } from '../../../../support/http-app.js'
import { checkRawExchange } from '../../../../support/traffic-check.js'
import { expectOneRawErrorDocument, openRaw, rawExchange, settlesWithin } from '../../../../support/raw-http.js'
import { expectErrorDocument, expectPlant } from '../../../../support/responses.js'

const BODY = '{"id":1,"name":"Monstera"}'
const MISSING = 'Bearer realm="plant-store"'
const INVALID = 'Bearer realm="plant-store", error="invalid_token"'

describe('POST /plants authentication', function () {
  let store: InMemoryPlantStore
  const app = useTestApp(() => {
    store = makeInMemoryPlantStore()
    return { plantStore: store }
  })

  const expectRefused = async (response: Response, challenge: string) => {
    await expectErrorDocument(response, 401)
    expect(response.headers.get('www-authenticate')).to.equal(challenge)
    expect(store.all()).to.deep.equal([])
  }

  it('answers 401 with a bare Bearer challenge when there is no Authorization header', async function () {
    const response = await fetch(`${app.url}/plants`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: BODY,
    })
    await expectRefused(response, MISSING)
  })

  const refusedHeaders: ReadonlyArray<readonly [string, string]> = [
    ['another scheme', `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ['the token without a scheme', TOKEN],
    ['an empty token', 'Bearer '],
    ['the scheme alone', 'Bearer'],
    ['an unknown token', 'Bearer unknown-token-0123456789'],
    ['the token in another case', `Bearer ${TOKEN.toUpperCase()}`],
    ['a prefix of the token', `Bearer ${TOKEN.slice(0, -1)}`],
    ['the token with a suffix', `Bearer ${TOKEN}x`],
    ['a token outside the token68 syntax', 'Bearer abc def'],
    ['the token in quotes', `Bearer "${TOKEN}"`],
  ]
  for (const [title, authorization] of refusedHeaders) {
    it(`answers 401 invalid_token for ${title}`, async function () {
      await expectRefused(await postPlant(app.url, BODY, { Authorization: authorization }), INVALID)
    })
  }

  describe('more than one Authorization header', function () {
    // fetch joins repeated fields into one line, so these requests are written as bytes.
    const postWith = (...authorizations: ReadonlyArray<string>): Promise<string> =>
      rawExchange(
        app.url,
        'POST /plants HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          authorizations.map((value) => `Authorization: ${value}\r\n`).join('') +
          `Content-Length: ${BODY.length}\r\nConnection: close\r\n\r\n${BODY}`,
      )

    for (const [title, authorizations] of [
      ['the valid token twice', [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]],
      ['the valid token, then an unknown one', [`Bearer ${TOKEN}`, 'Bearer unknown-token-0123456789']],
      ['an unknown token, then the valid one', ['Bearer unknown-token-0123456789', `Bearer ${TOKEN}`]],
      ['the valid token, then an empty field', [`Bearer ${TOKEN}`, '']],
    ] as const) {
      it(`answers 401 invalid_token, storing nothing, for ${title}`, async function () {
        const response = expectOneRawErrorDocument(await postWith(...authorizations), 401)
        expect(response.headers['www-authenticate']).to.equal(INVALID)
        expect((JSON.parse(response.body) as { message: string }).message).to.equal('Send one Authorization header; this request has several.')
        expect(store.all()).to.deep.equal([])
      })
    }

    it('still accepts the valid token sent once the same way', async function () {
      const [status] = (await postWith(`Bearer ${TOKEN}`)).split('\r\n')
      expect(status).to.equal('HTTP/1.1 200 OK')
      expect(store.all()).to.have.length(1)
    })
  })

  it('reads the scheme name case-insensitively', async function () {
    for (const [id, scheme] of [[1, 'bearer'], [2, 'BEARER'], [3, 'bEaReR']] as const) {
      await expectPlant(await postPlant(app.url, `{"id":${id},"name":"x"}`, { Authorization: `${scheme} ${TOKEN}` }), {
        name: 'x',
      })
    }
    expect(store.all()).to.have.length(3)
  })

  it('never puts the presented token in a response or a log line', async function () {
    const presented = 'almost-the-token-0123456789'
    const response = await postPlant(app.url, BODY, { Authorization: `Bearer ${presented}` })
    const message = await expectErrorDocument(response, 401)
    expect(message).to.not.include(presented)
    expect(JSON.stringify(app.log.lines)).to.not.include(presented)
    await postPlant(app.url, BODY)
    expect(JSON.stringify(app.log.lines)).to.not.include(TOKEN)
  })

  it('logs the subject of an authenticated request', async function () {
    await postPlant(app.url, BODY)
    expect(app.log.lines.find((line) => line['route'] === '/plants')).to.include({ subject: 'static-token-1', status: 200 })
  })

  describe('comes before the body', function () {
    it('answers 401, not 415, for an unauthenticated body of the wrong type', async function () {
      const response = await postPlant(app.url, 'hello', { Authorization: 'Bearer nope-nope-nope-nope', 'Content-Type': 'text/plain' })
      await expectRefused(response, INVALID)
    })

    it('answers 401, not 415, for an unauthenticated request with two Content-Type headers', async function () {
      const reply = await rawExchange(
        app.url,
        'POST /plants HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\n' +
          `Content-Length: ${BODY.length}\r\nConnection: close\r\n\r\n${BODY}`,
      )
      expect(expectOneRawErrorDocument(reply, 401).headers['www-authenticate']).to.equal(MISSING)
      expect(store.all()).to.deep.equal([])
    })

    it('never invites the body of Expect: 100-continue sent with two Authorization headers', async function () {
      const connection = await openRaw(app.url)
      connection.write(
        `POST /plants HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TOKEN}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${BODY.length}\r\nExpect: 100-continue\r\n\r\n`,
      )
      expect(await settlesWithin(connection.closed, 3000), 'closed by the server').to.equal(true)
      expect(connection.received()).not.to.include('100 Continue')
      const response = expectOneRawErrorDocument(connection.received(), 401)
      expect(response.headers['www-authenticate']).to.equal(INVALID)
      expect(response.headers['connection']).to.equal('close')
      expect(store.all()).to.deep.equal([])
    })

    it('answers 401, not 400, for an unauthenticated malformed body', async function () {
      await expectRefused(await postPlant(app.url, '{"id":', { Authorization: '' }), MISSING)
    })

    it('answers 401, not 413, for an unauthenticated body over the limit', async function () {
      const huge = `{"id":1,"name":"${'a'.repeat(app.deps.bodyLimitBytes * 2)}"}`
      await expectRefused(await postPlant(app.url, huge, { Authorization: 'Basic eDp5' }), INVALID)
    })

    it('answers without waiting for a body that never arrives', async function () {
      const { port } = new URL(app.url)
      const request =
        'POST /plants HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n'
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(request)
        })
        let received = ''
        socket.setEncoding('utf8')
        socket.on('data', (chunk: string) => {
          received += chunk
          if (received.includes('\r\n\r\n')) {
            socket.destroy()
            resolve(received)
          }
        })
        socket.on('error', reject)
        socket.setTimeout(3000, () => {
          socket.destroy()
          reject(new Error('no answer: the server waited for the body'))
        })
      })
      await checkRawExchange(app.url, request, reply)
      expect(reply).to.match(/^HTTP\/1\.1 401 /)
      expect(reply).to.include(`WWW-Authenticate: ${MISSING}`)
    })
  })

  describe('what the authenticator reports', function () {
    const withAuthenticator = async (authenticator: Authenticator) => {
      await app.restart({ plantStore: store, authenticator })
    }

    it('answers 403 with insufficient_scope and the scope for a token without the required scope', async function () {
      await withAuthenticator({ verify: () => TE.left(insufficientScope('plants:write')) })
      const response = await postPlant(app.url, BODY)
      await expectErrorDocument(response, 403)
      expect(response.headers.get('www-authenticate')).to.equal(
        'Bearer realm="plant-store", error="insufficient_scope", scope="plants:write"',
      )
      expect(store.all()).to.deep.equal([])
    })

    it('answers 503 when the identity provider cannot be reached', async function () {
      await withAuthenticator({ verify: () => TE.left(authenticationUnavailable(new Error('JWKS timeout'))) })
      const message = await expectErrorDocument(await postPlant(app.url, BODY), 503)
      expect(message).to.not.include('JWKS timeout')
      expect(store.all()).to.deep.equal([])
    })
  })
})
