import { expect } from 'chai'
import { UnsecuredJWT } from 'jose'
import { makeInMemoryPlantStore, type InMemoryPlantStore } from '../../../../adapters/in-memory/index.js'
import { DEFAULT_JWKS_OPTIONS, makeJwtAuthenticator, ScopeToken } from '../../../../adapters/jwt/index.js'
import { makeStaticTokenAuthenticator } from '../../../../adapters/static-tokens/index.js'
import { firstAccepting, type Authenticator } from '../../../../core/index.js'
import { expectRight } from '../../../support/either.js'
import { postPlant, startTestApp, TOKEN, type TestApp } from '../../../support/http-app.js'
import { expectErrorDocument, expectPlant } from '../../../support/responses.js'
import { startJwksServer, type JwksServer } from '../../../support/jwt/jwks-server.js'
import { AUDIENCE, inSeconds, ISSUER, issueToken, makeSigningKey, SUBJECT, withTamperedSignature, type SigningKey } from '../../../support/jwt/tokens.js'
import { virtualClock, type VirtualClock } from '../../../support/virtual-clock.js'

const MISSING = 'Bearer realm="plant-store"'
const INVALID = 'Bearer realm="plant-store", error="invalid_token"'
const INSUFFICIENT = 'Bearer realm="plant-store", error="insufficient_scope", scope="plants:write"'
// The key set's clock is virtual (from the wall clock's time, on which the tokens are issued):
// a cool-down passes when a test moves it, never while a fetch is out.
const COOLDOWN_MS = DEFAULT_JWKS_OPTIONS.cooldownMs

describe('POST /plants with JWT access tokens', function () {
  let key: SigningKey
  let rotated: SigningKey
  let jwks: JwksServer
  let store: InMemoryPlantStore
  let app: TestApp
  let time: VirtualClock

  /** The service's authenticator as the composition root builds it: static tokens, then JWT. */
  const staticThenJwt = (): Authenticator =>
    firstAccepting([
      makeStaticTokenAuthenticator([TOKEN]),
      makeJwtAuthenticator({
        keys: { _tag: 'Jwks', url: jwks.url, algorithms: ['RS256'] },
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredScope: expectRight(ScopeToken.decode('plants:write')),
        clockToleranceSeconds: 30,
        clock: time.clock,
      }),
    ])

  const post = (token: string, body = '{"id":1,"name":"Monstera"}'): Promise<Response> =>
    postPlant(app.url, body, { Authorization: `Bearer ${token}` })

  const expectChallenge = async (response: Response, status: number, challenge: string): Promise<string> => {
    const message = await expectErrorDocument(response, status)
    expect(response.headers.get('www-authenticate')).to.equal(challenge)
    expect(store.all()).to.deep.equal([])
    return message
  }

  before(async function () {
    ;[key, rotated] = await Promise.all([makeSigningKey('RS256', 'key-1'), makeSigningKey('RS256', 'key-2')])
  })
  beforeEach(async function () {
    jwks = await startJwksServer([key.jwk])
    time = virtualClock(Date.now())
    store = makeInMemoryPlantStore()
    app = await startTestApp({ plantStore: store, authenticator: staticThenJwt() })
  })
  afterEach(async function () {
    await app.close()
    await jwks.stop()
  })

  it('creates a plant for a token signed by the provider, logging its subject and never the token', async function () {
    const token = await issueToken(key)
    await expectPlant(await post(token), { name: 'Monstera' })
    expect(store.all()).to.have.length(1)
    expect(app.log.lines.find((line) => line['route'] === '/plants')).to.include({ subject: SUBJECT, status: 200 })
    expect(JSON.stringify(app.log.lines)).not.to.include(token)
  })

  it('still accepts a static token beside JWT', async function () {
    await expectPlant(await post(TOKEN), { name: 'Monstera' })
    expect(app.log.lines.find((line) => line['route'] === '/plants')).to.include({ subject: 'static-token-1' })
  })

  describe('answers 401 invalid_token', function () {
    const refused: ReadonlyArray<readonly [string, () => Promise<string>]> = [
      ['an expired token', () => issueToken(key, { iat: inSeconds(-600), exp: inSeconds(-120) })],
      ['a token that is not yet valid', () => issueToken(key, { nbf: inSeconds(600) })],
      ['a token from another issuer', () => issueToken(key, { iss: 'https://another-idp.example.test/' })],
      ['a token for another audience', () => issueToken(key, { aud: 'https://another-api.example.test' })],
      ['a token with a tampered signature', async () => withTamperedSignature(await issueToken(key))],
      ['an unsigned token (alg: none)', async () => new UnsecuredJWT({ scope: 'plants:write' }).setIssuer(ISSUER).setAudience(AUDIENCE).setSubject(SUBJECT).setExpirationTime('5m').encode()],
      ['a token signed by a key the provider never published', async () => issueToken(await makeSigningKey('RS256', 'key-1'))],
    ]
    for (const [title, token] of refused) {
      it(`for ${title}`, async function () {
        const presented = await token()
        const message = await expectChallenge(await post(presented), 401, INVALID)
        expect(message).not.to.include(presented.split('.')[1])
        expect(JSON.stringify(app.log.lines)).not.to.include(presented)
      })
    }

    it('for a token in the wrong header form', async function () {
      const token = await issueToken(key)
      for (const authorization of [token, `Token ${token}`, `JWT ${token}`, `Bearer "${token}"`, `Bearer ${token} ${token}`]) {
        await expectChallenge(await postPlant(app.url, '{"id":1,"name":"x"}', { Authorization: authorization }), 401, INVALID)
      }
    })

    it('before reading the body: an expired token with a malformed body is still a 401', async function () {
      const token = await issueToken(key, { exp: inSeconds(-120) })
      await expectChallenge(await post(token, '{"id":'), 401, INVALID)
    })
  })

  it('answers 401 with a bare challenge when no token is sent', async function () {
    await expectChallenge(await postPlant(app.url, '{"id":1,"name":"x"}', { Authorization: '' }), 401, MISSING)
  })

  it('answers 403 insufficient_scope, naming the scope, for a valid token without it', async function () {
    const message = await expectChallenge(await post(await issueToken(key, { scope: 'plants:read' })), 403, INSUFFICIENT)
    expect(message).to.include('plants:write')
    await expectChallenge(await post(await issueToken(key, { scope: undefined })), 403, INSUFFICIENT)
  })

  it('refuses an unknown kid, then accepts it once the provider publishes the key, without a restart', async function () {
    await expectPlant(await post(await issueToken(key)), { name: 'Monstera' })
    await time.advanceAsync(COOLDOWN_MS)
    const unknown = await post(await issueToken(rotated), '{"id":2,"name":"Fern"}')
    await expectErrorDocument(unknown, 401)
    expect(unknown.headers.get('www-authenticate')).to.equal(INVALID)
    jwks.publish([key.jwk, rotated.jwk])
    await time.advanceAsync(COOLDOWN_MS)
    await expectPlant(await post(await issueToken(rotated), '{"id":2,"name":"Fern"}'), { name: 'Fern' })
    expect(jwks.requestCount()).to.equal(3)
  })

  it('answers forged tokens naming unknown kids 401 invalid_token, each logged once at info with an excerpt of its kid', async function () {
    // A first token makes the key set be fetched; within the cool-down, forged tokens cost no fetch.
    await expectChallenge(await post(withTamperedSignature(await issueToken(key))), 401, INVALID)
    const forger = await makeSigningKey('RS256', 'forger')
    for (const kid of ['x'.repeat(9_000), 'another-key', 'k3', 7, null, '', { a: 1 }]) {
      await expectChallenge(await post(await issueToken(forger, {}, { kid })), 401, INVALID)
    }
    expect(jwks.requestCount()).to.equal(1)
    const refusals = app.log.lines.filter((line) => line['status'] === 401)
    expect(refusals).to.have.length(8)
    const unknown = refusals.filter((line) => line['msg'] === 'request refused: unknown signing key')
    expect(unknown.map((line) => line['level'])).to.deep.equal(['info', 'info', 'info'])
    expect(unknown[0]?.['cause']).to.be.a('string').that.includes('(9000 characters)')
    for (const line of refusals) expect(JSON.stringify(line).length, JSON.stringify(line).slice(0, 300)).to.be.below(500)
    expect(app.log.lines.filter((line) => line['level'] !== 'info')).to.deep.equal([])
  })

  it('keeps serving tokens whose key is cached while the provider is down (200)', async function () {
    await expectPlant(await post(await issueToken(key)), { name: 'Monstera' })
    await jwks.stop()
    await expectPlant(await post(await issueToken(key), '{"id":2,"name":"Fern"}'), { name: 'Fern' })
  })

  it('answers 503 when the provider is down and no cached key fits the token', async function () {
    await jwks.stop()
    const token = await issueToken(key)
    const response = await post(token)
    const message = await expectErrorDocument(response, 503)
    expect(message).to.match(/identity provider/)
    expect(response.headers.get('www-authenticate')).to.equal(null)
    expect(store.all()).to.deep.equal([])
    expect(app.log.lines.find((line) => line['status'] === 503)).to.have.property('cause')
    expect(JSON.stringify(app.log.lines)).not.to.include(token)
  })
})
