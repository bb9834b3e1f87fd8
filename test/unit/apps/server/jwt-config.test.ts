import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { generateKeyPairSync } from 'node:crypto'
import type { JwtAuthenticatorOptions } from '../../../../adapters/jwt/index.js'
import { loadConfig } from '../../../../apps/server/config.js'
import { parseJwtConfig } from '../../../../apps/server/jwt-config.js'
import { expectRight } from '../../../support/either.js'

const SECRET = 'a-shared-secret-of-at-least-32-bytes!'
const base = { JWT_ISSUER: 'https://idp.example.test/', JWT_AUDIENCE: 'plant-store' }

const pemOf = (kind: 'rsa' | 'ec' | 'ed25519', detail: { modulusLength?: number; namedCurve?: string } = {}) => {
  const pair =
    kind === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: detail.modulusLength ?? 2048 })
      : kind === 'ec'
        ? generateKeyPairSync('ec', { namedCurve: detail.namedCurve ?? 'P-256' })
        : generateKeyPairSync('ed25519')
  return {
    publicPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privatePem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  }
}

const parsed = (env: Record<string, string | undefined>): JwtAuthenticatorOptions => {
  const options = expectRight(parseJwtConfig(env))
  if (options === undefined) return expect.fail('expected JWT options, got undefined')
  return options
}

/** The messages of a refused configuration, as one text to search. */
const refusal = (env: Record<string, string | undefined>): string => {
  const result = parseJwtConfig(env)
  if (E.isRight(result)) return expect.fail('expected the configuration to be refused')
  return result.left.join('\n')
}

describe('JWT configuration from the environment', () => {
  it('is absent when no JWT variable is set (empty values count as unset)', () => {
    expect(expectRight(parseJwtConfig({ PORT: '3000', PLANT_STORE_TOKENS: 'x' }))).to.equal(undefined)
    expect(expectRight(parseJwtConfig({ JWT_SECRET: '', JWT_ISSUER: '' }))).to.equal(undefined)
  })

  it('reaches loadConfig as the service settings\' jwt options', () => {
    const jwt = expectRight(loadConfig({ ...base, JWT_SECRET: SECRET })).jwt
    expect(jwt).to.include({ issuer: base.JWT_ISSUER, audience: base.JWT_AUDIENCE, clockToleranceSeconds: 30 })
    expect(jwt?.keys).to.include({ _tag: 'Secret' })
  })

  describe('a JWKS URL', () => {
    it('gives a JWKS key source allowing RS256, with a 30 s clock tolerance and no required scope', () => {
      const options = parsed({ ...base, JWT_JWKS_URL: 'https://idp.example.test/.well-known/jwks.json' })
      expect(options.keys._tag).to.equal('Jwks')
      expect(options.keys._tag === 'Jwks' && options.keys.url.href).to.equal('https://idp.example.test/.well-known/jwks.json')
      expect(options.keys.algorithms).to.deep.equal(['RS256'])
      expect(options).to.include({ issuer: base.JWT_ISSUER, audience: base.JWT_AUDIENCE, clockToleranceSeconds: 30 })
      expect(options).not.to.have.property('requiredScope')
    })

    it('takes the listed algorithms, the required scope and the clock tolerance', () => {
      const options = parsed({
        ...base,
        JWT_JWKS_URL: 'https://idp.example.test/jwks',
        JWT_ALGORITHMS: 'RS256, ES256,EdDSA',
        JWT_REQUIRED_SCOPE: 'plants:write',
        JWT_CLOCK_TOLERANCE: '0',
      })
      expect(options.keys.algorithms).to.deep.equal(['RS256', 'ES256', 'EdDSA'])
      expect(options).to.include({ requiredScope: 'plants:write', clockToleranceSeconds: 0 })
    })

    it('bounds key-set fetches to 6 a minute, or JWT_JWKS_MAX_FETCHES_PER_MINUTE', () => {
      const url = 'https://idp.example.test/jwks'
      const bound = (extra: Record<string, string>) => {
        const keys = parsed({ ...base, JWT_JWKS_URL: url, ...extra }).keys
        return keys._tag === 'Jwks' ? keys.maxFetchesPerMinute : undefined
      }
      expect(bound({})).to.equal(6)
      expect(bound({ JWT_JWKS_MAX_FETCHES_PER_MINUTE: '2' })).to.equal(2)
      for (const bad of ['0', '601', 'many']) {
        expect(refusal({ ...base, JWT_JWKS_URL: url, JWT_JWKS_MAX_FETCHES_PER_MINUTE: bad })).to.match(
          /^JWT_JWKS_MAX_FETCHES_PER_MINUTE: expected/,
        )
      }
    })

    it('refuses plain http except on a loopback host', () => {
      expect(refusal({ ...base, JWT_JWKS_URL: 'http://idp.example.test/jwks' })).to.match(/^JWT_JWKS_URL: expected an https URL/)
      expect(refusal({ ...base, JWT_JWKS_URL: 'not a url' })).to.match(/^JWT_JWKS_URL/)
      expect(parsed({ ...base, JWT_JWKS_URL: 'http://127.0.0.1:8080/jwks' }).keys._tag).to.equal('Jwks')
    })

    it('refuses HMAC algorithms and "none"', () => {
      const message = refusal({ ...base, JWT_JWKS_URL: 'https://idp.example.test/jwks', JWT_ALGORITHMS: 'RS256,HS256,none' })
      expect(message).to.match(/^JWT_ALGORITHMS: expected a comma-separated list of RS256, /)
      expect(message).to.include('"HS256"').and.include('"none" (unsigned tokens are never accepted)')
    })
  })

  describe('a public key', () => {
    it('defaults the algorithm to the one the key is for', () => {
      expect(parsed({ ...base, JWT_PUBLIC_KEY: pemOf('rsa').publicPem }).keys.algorithms).to.deep.equal(['RS256'])
      expect(parsed({ ...base, JWT_PUBLIC_KEY: pemOf('ec').publicPem }).keys.algorithms).to.deep.equal(['ES256'])
      expect(parsed({ ...base, JWT_PUBLIC_KEY: pemOf('ec', { namedCurve: 'P-384' }).publicPem }).keys.algorithms).to.deep.equal(['ES384'])
      expect(parsed({ ...base, JWT_PUBLIC_KEY: pemOf('ed25519').publicPem }).keys.algorithms).to.deep.equal(['EdDSA'])
    })

    it('accepts a PEM written on one line with \\n escapes', () => {
      const oneLine = pemOf('rsa').publicPem.trim().split('\n').join('\\n')
      expect(parsed({ ...base, JWT_PUBLIC_KEY: oneLine }).keys._tag).to.equal('PublicKey')
    })

    it('refuses an algorithm the key cannot verify, and any HMAC algorithm', () => {
      const ec = pemOf('ec').publicPem
      expect(refusal({ ...base, JWT_PUBLIC_KEY: ec, JWT_ALGORITHMS: 'RS256' })).to.match(/^JWT_ALGORITHMS: expected a comma-separated list of ES256, /)
      expect(refusal({ ...base, JWT_PUBLIC_KEY: pemOf('rsa').publicPem, JWT_ALGORITHMS: 'HS256' })).to.match(/"HS256" cannot be used/)
    })

    it('refuses a private key, a short RSA key and text that is not a key, without repeating it', () => {
      const { privatePem } = pemOf('rsa')
      const privateRefusal = refusal({ ...base, JWT_PUBLIC_KEY: privatePem })
      expect(privateRefusal).to.equal('JWT_PUBLIC_KEY: expected a public key, not a private one')
      expect(refusal({ ...base, JWT_PUBLIC_KEY: pemOf('rsa', { modulusLength: 1024 }).publicPem })).to.match(/2048 bits/)
      expect(refusal({ ...base, JWT_PUBLIC_KEY: 'hello' })).to.match(/^JWT_PUBLIC_KEY: expected a PEM public key/)
    })
  })

  describe('a shared secret', () => {
    it('gives a secret key source allowing HS256, holding the secret as UTF-8 bytes', () => {
      const options = parsed({ ...base, JWT_SECRET: SECRET })
      expect(options.keys.algorithms).to.deep.equal(['HS256'])
      expect(options.keys._tag === 'Secret' && Buffer.from(options.keys.secret).toString('utf8')).to.equal(SECRET)
    })

    it('refuses a secret shorter than 32 bytes, or shorter than the hash of HS384/HS512, without repeating it', () => {
      const short = refusal({ ...base, JWT_SECRET: 'too-short-secret' })
      expect(short).to.match(/^JWT_SECRET: expected at least 32 bytes/)
      expect(short).not.to.include('too-short-secret')
      expect(refusal({ ...base, JWT_SECRET: SECRET, JWT_ALGORITHMS: 'HS256,HS512' })).to.match(/at least 64 bytes/)
    })

    it('refuses asymmetric algorithms', () => {
      expect(refusal({ ...base, JWT_SECRET: SECRET, JWT_ALGORITHMS: 'RS256' })).to.match(/^JWT_ALGORITHMS: expected a comma-separated list of HS256, HS384, HS512/)
    })
  })

  describe('refusals', () => {
    it('asks for exactly one key source', () => {
      expect(refusal({ ...base })).to.match(/^JWT_JWKS_URL, JWT_PUBLIC_KEY, JWT_SECRET: expected exactly one/)
      expect(refusal({ ...base, JWT_JWKS_URL: 'https://idp.example.test/jwks', JWT_SECRET: SECRET })).to.include(
        'JWT_JWKS_URL and JWT_SECRET are set',
      )
    })

    it('requires the issuer and the audience, and reports every problem at once', () => {
      const message = refusal({ JWT_SECRET: SECRET, JWT_CLOCK_TOLERANCE: '301', JWT_REQUIRED_SCOPE: 'plants write' })
      expect(message).to.include('JWT_ISSUER: expected').and.include('JWT_AUDIENCE: expected')
      expect(message).to.include('JWT_CLOCK_TOLERANCE: expected whole seconds from 0 to 300')
      expect(message).to.include('JWT_REQUIRED_SCOPE: expected one OAuth scope')
      expect(message).not.to.include(SECRET)
    })

    it('refuses a clock tolerance that is not whole seconds', () => {
      for (const value of ['-1', '1.5', '30s', ' 30', '1e2']) {
        expect(refusal({ ...base, JWT_SECRET: SECRET, JWT_CLOCK_TOLERANCE: value })).to.match(/^JWT_CLOCK_TOLERANCE/)
      }
    })

    it('are reported by loadConfig all at once, beside those of other variables', () => {
      const result = loadConfig({ PORT: 'eighty', JWT_SECRET: SECRET, JWT_ISSUER: base.JWT_ISSUER, JWT_CLOCK_TOLERANCE: '1h' })
      if (E.isRight(result)) return expect.fail('expected the configuration to be refused')
      expect(result.left).to.have.lengthOf(3)
      expect(result.left.join('\n')).to.match(/^PORT: expected/m).and.match(/^JWT_AUDIENCE: expected/m).and.match(/^JWT_CLOCK_TOLERANCE: expected/m)
    })

    it('refuses a required scope that could not stand in a WWW-Authenticate header', () => {
      expect(refusal({ ...base, JWT_SECRET: SECRET, JWT_REQUIRED_SCOPE: 'plants"write' })).to.match(/^JWT_REQUIRED_SCOPE/)
    })
  })
})
