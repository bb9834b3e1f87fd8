import { expect } from 'chai'
import { generateKeyPairSync, sign } from 'node:crypto'
import { errors } from 'jose'
import { toAuthError } from '../../../../adapters/jwt/auth-errors.js'
import { makeJwtAuthenticator, type JwtAuthenticatorOptions } from '../../../../adapters/jwt/index.js'
import { KeySetUnavailable } from '../../../../adapters/jwt/remote-key-set.js'
import { BearerToken } from '../../../../core/index.js'
import { expectRight } from '../../../support/either.js'
import { postPlant, startTestApp, type TestApp } from '../../../support/http-app.js'
import { startJwksServer } from '../../../support/jwt/jwks-server.js'
import { AUDIENCE, ISSUER, issueToken, makeSigningKey } from '../../../support/jwt/tokens.js'
import { expectErrorDocument } from '../../../support/responses.js'

// Only an unreachable key set is an outage (503, worth a retry). A failure that is neither the
// token's fault nor an outage is a defect on this side: the task rejects, and the HTTP error
// boundary answers 500.
describe('JWT verification: outages versus defects', function () {
  it('an unreachable key set is AuthenticationUnavailable; a refused token is Unauthenticated', function () {
    expect(toAuthError(new KeySetUnavailable(new Error('ECONNREFUSED')))).to.include({ _tag: 'AuthenticationUnavailable' })
    expect(toAuthError(new errors.JWTExpired('expired', {}))).to.include({ _tag: 'Unauthenticated', reason: 'Invalid' })
  })

  for (const [label, failure] of [
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'kid')")],
    ['a plain object', { code: 'EWHATEVER' }],
    ['null', null],
  ] as const) {
    it(`any other failure (${label}) is thrown again, not made a 503`, function () {
      expect(() => toAuthError(failure)).to.throw().that.equals(failure)
    })
  }

  it("answers 503, not 500, when the provider's key set publishes a key that cannot be used", async function () {
    // An RSA key of 1024 bits: jose refuses to verify with it (a TypeError), and to sign with it,
    // so the token is signed here with Node's own RSA.
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 })
    const jwks = await startJwksServer([{ ...publicKey.export({ format: 'jwk' }), kid: 'short', alg: 'RS256', use: 'sig' }])
    try {
      const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url')
      const now = Math.floor(Date.now() / 1000)
      const signed = `${part({ alg: 'RS256', kid: 'short' })}.${part({ iss: ISSUER, aud: AUDIENCE, sub: 'user-1', exp: now + 300 })}`
      const token = `${signed}.${sign('RSA-SHA256', Buffer.from(signed), privateKey).toString('base64url')}`
      const authenticator = makeJwtAuthenticator({
        keys: { _tag: 'Jwks', url: jwks.url, algorithms: ['RS256'] },
        issuer: ISSUER,
        audience: AUDIENCE,
        clockToleranceSeconds: 30,
      })
      const answer = await authenticator.verify(expectRight(BearerToken.decode(token)))()
      expect(answer).to.have.nested.property('left._tag', 'AuthenticationUnavailable')
    } finally {
      await jwks.stop()
    }
  })

  describe('through the authenticator and the HTTP app', function () {
    let app: TestApp | undefined
    let options: JwtAuthenticatorOptions
    let token: string
    before(async function () {
      const key = await makeSigningKey('RS256', 'key-1')
      token = await issueToken(key)
      // A key the configuration should never have let through: jose fails with a TypeError.
      options = {
        keys: { _tag: 'PublicKey', key: 'not a key object' as never, algorithms: ['RS256'] },
        issuer: ISSUER,
        audience: AUDIENCE,
        clockToleranceSeconds: 30,
      }
    })
    afterEach(async () => {
      await app?.close()
      app = undefined
    })

    it('rejects the task on a defect', async function () {
      const verify = makeJwtAuthenticator(options).verify(expectRight(BearerToken.decode(token)))
      let rejected: unknown
      await verify().then(
        (answer) => expect.fail(`expected a rejection, got ${JSON.stringify(answer)}`),
        (error: unknown) => (rejected = error),
      )
      expect(rejected).to.be.instanceOf(TypeError)
    })

    it('answers 500 with the cause logged, not 503 with Retry-After', async function () {
      app = await startTestApp({ authenticator: makeJwtAuthenticator(options) })
      const response = await postPlant(app.url, '{"id":1,"name":"x"}', { Authorization: `Bearer ${token}` })
      await expectErrorDocument(response, 500)
      expect(response.headers.get('retry-after')).to.equal(null)
      const line = app.log.lines.find((l) => l['status'] === 500)
      expect(line).to.include({ level: 'error' })
      expect(String(line?.['cause'])).to.include('TypeError')
    })
  })
})
