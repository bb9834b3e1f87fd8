import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { createPublicKey, randomBytes, type KeyObject } from 'node:crypto'
import { SignJWT, UnsecuredJWT } from 'jose'
import {
  makeJwtAuthenticator,
  ScopeToken,
  type JwksKeySource,
  type JwtAuthenticatorOptions,
  type KeySource,
} from '../../../../adapters/jwt/index.js'
import { BearerToken, type AuthError, type Identity } from '../../../../core/index.js'
import { expectLeftTag, expectRight } from '../../../support/either.js'
import { startJwksServer, type JwksServer } from '../../../support/jwt/jwks-server.js'
import {
  AUDIENCE,
  claimsOf,
  inSeconds,
  ISSUER,
  issueToken,
  makeSigningKey,
  SUBJECT,
  withPayload,
  withTamperedSignature,
  type SigningKey,
} from '../../../support/jwt/tokens.js'

const options = (keys: KeySource, more: Partial<JwtAuthenticatorOptions> = {}): JwtAuthenticatorOptions => ({
  keys,
  issuer: ISSUER,
  audience: AUDIENCE,
  clockToleranceSeconds: 30,
  ...more,
})

const scope = (s: string): ScopeToken => expectRight(ScopeToken.decode(s))

const verify = (options: JwtAuthenticatorOptions, token: string): Promise<E.Either<AuthError, Identity>> =>
  makeJwtAuthenticator(options).verify(expectRight(BearerToken.decode(token)))()

/** Asserts the token was refused as invalid, with a reason that does not repeat the token. */
const expectRefused = (result: E.Either<AuthError, Identity>, token: string, reason: RegExp): void => {
  const error = expectLeftTag(result, 'Unauthenticated')
  expect(error.reason).to.equal('Invalid')
  expect(error.detail).to.match(reason)
  for (const part of token.split('.').filter((p) => p.length > 8)) expect(error.detail).not.to.include(part)
}

describe('JWT authenticator', () => {
  let rsa: SigningKey
  let ec: SigningKey
  let ed: SigningKey
  let jwks: JwksServer
  let jwksSource: JwksKeySource

  before(async () => {
    ;[rsa, ec, ed] = await Promise.all([
      makeSigningKey('RS256', 'rsa-1'),
      makeSigningKey('ES256', 'ec-1'),
      makeSigningKey('EdDSA', 'ed-1'),
    ])
    jwks = await startJwksServer([rsa.jwk, ec.jwk, ed.jwk])
    jwksSource = { _tag: 'Jwks', url: jwks.url, algorithms: ['RS256', 'ES256', 'EdDSA'] }
  })
  after(() => jwks.stop())

  describe('a valid token of each algorithm', () => {
    for (const [name, key] of [
      ['RS256', () => rsa],
      ['ES256', () => ec],
      ['EdDSA', () => ed],
    ] as const) {
      it(`accepts ${name} with keys from a JWKS URL, naming the subject and its scopes`, async () => {
        const identity = expectRight(await verify(options(jwksSource), await issueToken(key())))
        expect(identity).to.deep.equal({ subject: SUBJECT, scopes: ['plants:read', 'plants:write'] })
      })
    }

    it('accepts RS256 with a configured public key (PEM)', async () => {
      const source: KeySource = { _tag: 'PublicKey', key: createPublicKey(publicPem(rsa)), algorithms: ['RS256'] }
      expect(expectRight(await verify(options(source), await issueToken(rsa))).subject).to.equal(SUBJECT)
    })

    it('accepts ES256 and EdDSA with a configured public key (PEM)', async () => {
      for (const key of [ec, ed]) {
        const source: KeySource = { _tag: 'PublicKey', key: createPublicKey(publicPem(key)), algorithms: ['ES256', 'EdDSA'] }
        expect(expectRight(await verify(options(source), await issueToken(key))).subject).to.equal(SUBJECT)
      }
    })

    it('accepts HS256 with a shared secret', async () => {
      const secret = new Uint8Array(randomBytes(32))
      const token = await issueToken({ alg: 'HS256', kid: 'shared', privateKey: secret, jwk: {} })
      const identity = expectRight(await verify(options({ _tag: 'Secret', secret, algorithms: ['HS256'] }), token))
      expect(identity.subject).to.equal(SUBJECT)
    })
  })

  describe('time', () => {
    it('refuses an expired token', async () => {
      const token = await issueToken(rsa, { iat: inSeconds(-600), exp: inSeconds(-120) })
      expectRefused(await verify(options(jwksSource), token), token, /expired/)
    })

    it('refuses a token that is not yet valid', async () => {
      const token = await issueToken(rsa, { nbf: inSeconds(120) })
      expectRefused(await verify(options(jwksSource), token), token, /not valid yet/)
    })

    it('forgives clock skew within the tolerance, for exp and for nbf', async () => {
      const expiredJustNow = await issueToken(rsa, { exp: inSeconds(-10) })
      const validInAMoment = await issueToken(rsa, { nbf: inSeconds(10) })
      expectRight(await verify(options(jwksSource, { clockToleranceSeconds: 30 }), expiredJustNow))
      expectRight(await verify(options(jwksSource, { clockToleranceSeconds: 30 }), validInAMoment))
      expectRefused(await verify(options(jwksSource, { clockToleranceSeconds: 0 }), expiredJustNow), expiredJustNow, /expired/)
      expectRefused(await verify(options(jwksSource, { clockToleranceSeconds: 0 }), validInAMoment), validInAMoment, /not valid yet/)
    })

    it('refuses a token without exp: it would never expire', async () => {
      const token = await issueToken(rsa, { exp: undefined })
      expectRefused(await verify(options(jwksSource), token), token, /"exp"/)
    })
  })

  describe('issuer, audience and subject', () => {
    it('refuses a token from another issuer', async () => {
      const token = await issueToken(rsa, { iss: 'https://another-idp.example.test/' })
      expectRefused(await verify(options(jwksSource), token), token, /issuer/)
    })

    it('refuses a token meant for another audience, and accepts one whose aud list names this service', async () => {
      const foreign = await issueToken(rsa, { aud: 'https://another-api.example.test' })
      expectRefused(await verify(options(jwksSource), foreign), foreign, /audience/)
      expectRight(await verify(options(jwksSource), await issueToken(rsa, { aud: ['https://another-api.example.test', AUDIENCE] })))
    })

    it('refuses a token without a subject, or with an empty one', async () => {
      const token = await issueToken(rsa, { sub: undefined })
      expectRefused(await verify(options(jwksSource), token), token, /"sub"/)
      const empty = await issueToken(rsa, { sub: '' })
      expectRefused(await verify(options(jwksSource), empty), empty, /non-empty "sub"/)
    })
  })

  describe('scope', () => {
    const required = { requiredScope: scope('plants:write') }

    it('answers InsufficientScope, naming the scope, when the token lacks the required one', async () => {
      const error = expectLeftTag(await verify(options(jwksSource, required), await issueToken(rsa, { scope: 'plants:read' })), 'InsufficientScope')
      expect(error.requiredScope).to.equal('plants:write')
    })

    it('answers InsufficientScope when the token carries no scope at all', async () => {
      const token = await issueToken(rsa, { scope: undefined })
      expectLeftTag(await verify(options(jwksSource, required), token), 'InsufficientScope')
    })

    it('does not take a scope that merely contains the required one', async () => {
      const token = await issueToken(rsa, { scope: 'plants:write-not plants:writer' })
      expectLeftTag(await verify(options(jwksSource, required), token), 'InsufficientScope')
    })

    it('reads scopes from an scp list and from an scp string', async () => {
      const fromList = await issueToken(rsa, { scope: undefined, scp: ['plants:read', 'plants:write'] })
      const fromString = await issueToken(rsa, { scope: undefined, scp: 'plants:write' })
      expect(expectRight(await verify(options(jwksSource, required), fromList)).scopes).to.deep.equal(['plants:read', 'plants:write'])
      expect(expectRight(await verify(options(jwksSource, required), fromString)).scopes).to.deep.equal(['plants:write'])
    })

    it('reads a scope list too, and refuses a scope claim of another shape as malformed', async () => {
      const listed = await issueToken(rsa, { scope: ['plants:write'] })
      expect(expectRight(await verify(options(jwksSource, required), listed)).scopes).to.deep.equal(['plants:write'])
      const malformed = await issueToken(rsa, { scope: 42 })
      expectRefused(await verify(options(jwksSource, required), malformed), malformed, /scopes as a string or a list/)
    })

    it('checks the scope only once the token is otherwise valid: an expired token is a 401, not a 403', async () => {
      const token = await issueToken(rsa, { scope: 'plants:read', exp: inSeconds(-120) })
      expectRefused(await verify(options(jwksSource, required), token), token, /expired/)
    })
  })

  describe('forged tokens', () => {
    it('refuses a token whose payload was changed after signing', async () => {
      const token = await issueToken(rsa, { scope: 'plants:read' })
      const forged = withPayload(token, { ...claimsOf(token), sub: 'admin', scope: 'plants:write' })
      expectRefused(await verify(options(jwksSource), forged), forged, /signature/)
    })

    it('refuses a token whose signature was changed', async () => {
      const forged = withTamperedSignature(await issueToken(ec))
      expectRefused(await verify(options(jwksSource), forged), forged, /signature/)
    })

    it('refuses an unsigned token (alg: none)', async () => {
      const unsigned = new UnsecuredJWT({ scope: 'plants:write' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(SUBJECT)
        .setExpirationTime('5m')
        .encode()
      expectRefused(await verify(options(jwksSource), unsigned), unsigned, /algorithm/)
    })

    it('refuses an HS256 token whose secret is the provider public key (algorithm confusion)', async () => {
      const providerPem = publicPem(rsa)
      const forged = await new SignJWT({ scope: 'plants:write' })
        .setProtectedHeader({ alg: 'HS256', kid: rsa.kid })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject('admin')
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(providerPem))
      const publicKeySource: KeySource = { _tag: 'PublicKey', key: createPublicKey(providerPem), algorithms: ['RS256'] }
      expectRefused(await verify(options(jwksSource), forged), forged, /algorithm/)
      expectRefused(await verify(options(publicKeySource), forged), forged, /algorithm/)
    })

    it('refuses a token signed with an allowed algorithm the configuration does not list', async () => {
      const token = await issueToken(ec)
      expectRefused(await verify(options({ ...jwksSource, algorithms: ['RS256'] }), token), token, /algorithm/)
    })

    it('refuses a token signed by a key the provider does not publish', async () => {
      const stranger = await makeSigningKey('RS256', 'rsa-1')
      const token = await issueToken(stranger)
      expectRefused(await verify(options(jwksSource), token), token, /signature/)
    })

    it('refuses what is not a JWT at all, such as a static token', async () => {
      expectRefused(await verify(options(jwksSource), 'dev-token-0123456789abcdef'), 'dev-token-0123456789abcdef', /well-formed JWT/)
    })
  })
})

/** The public key as a provider hands it out in PEM form. */
const publicPem = (key: SigningKey): string =>
  asKeyObject(key).export({ type: 'spki', format: 'pem' }).toString()

const asKeyObject = (key: SigningKey): KeyObject => createPublicKey({ key: key.jwk as Record<string, string>, format: 'jwk' })
