import { expect } from 'chai'
import { randomUUID } from 'node:crypto'
import type * as E from 'fp-ts/lib/Either.js'
import { DEFAULT_JWKS_OPTIONS, makeJwtAuthenticator, type JwksKeySource } from '../../../../adapters/jwt/index.js'
import { BearerToken, type AuthError, type Authenticator, type Identity } from '../../../../core/index.js'
import { expectLeftTag, expectRight } from '../../../support/either.js'
import { startJwksServer, type JwksServer } from '../../../support/jwt/jwks-server.js'
import { yardstickMs } from '../../../support/yardstick.js'
import { AUDIENCE, ISSUER, issueToken, makeSigningKey, sleep, SUBJECT, type SigningKey } from '../../../support/jwt/tokens.js'

// Short enough to keep the suite quick, long enough that a slow machine does not blur them.
const COOLDOWN_MS = 300
// The fetch's time-out: 300 ms, or ten times the slowest of five fetches of a key set on this
// machine now, when that is longer (a loopback fetch took over 300 ms at a load of 17 on 2 cores).
let TIMEOUT_MS = 300

describe('JWT authenticator with a JWKS URL', () => {
  let current: SigningKey
  let next: SigningKey
  let jwks: JwksServer

  before(async () => {
    ;[current, next] = await Promise.all([makeSigningKey('RS256', 'key-2024'), makeSigningKey('RS256', 'key-2025')])
    const yardstickServer = await startJwksServer([current.jwk])
    try {
      const slowestMs = await yardstickMs(5, 20, () => fetch(yardstickServer.url).then((answer) => answer.text()))
      TIMEOUT_MS = Math.max(300, Math.ceil(10 * slowestMs))
    } finally {
      await yardstickServer.stop()
    }
  })
  beforeEach(async () => {
    jwks = await startJwksServer([current.jwk])
  })
  afterEach(() => jwks.stop())

  const authenticatorFor = (timing: Partial<Pick<JwksKeySource, 'cacheMaxAgeMs'>> = {}): Authenticator =>
    makeJwtAuthenticator({
      keys: { _tag: 'Jwks', url: jwks.url, algorithms: ['RS256'], cooldownMs: COOLDOWN_MS, timeoutMs: TIMEOUT_MS, ...timing },
      issuer: ISSUER,
      audience: AUDIENCE,
      clockToleranceSeconds: 30,
    })

  const verify = async (authenticator: Authenticator, key: SigningKey): Promise<E.Either<AuthError, Identity>> =>
    authenticator.verify(expectRight(BearerToken.decode(await issueToken(key))))()

  it('fetches the key set once and answers later tokens from the cache', async () => {
    const authenticator = authenticatorFor()
    for (let i = 0; i < 5; i += 1) expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    expect(jwks.requestCount()).to.equal(1)
  })

  it('accepts a token signed by a rotated-in key once the cool-down has passed, without a restart', async () => {
    const authenticator = authenticatorFor()
    expectRight(await verify(authenticator, current))
    jwks.publish([current.jwk, next.jwk])

    // Within the cool-down the set is not fetched again: the key is not known yet, so the token is
    // refused (401), and the provider is not asked.
    expect(expectLeftTag(await verify(authenticator, next), 'Unauthenticated').reason).to.equal('UnknownKey')
    expect(jwks.requestCount()).to.equal(1)

    await sleep(COOLDOWN_MS + 100)
    expect(expectRight(await verify(authenticator, next)).subject).to.equal(SUBJECT)
    expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    expect(jwks.requestCount()).to.equal(2)
  })

  it('refuses tokens naming keys the provider does not publish (401, not 503), fetching at most once per cool-down', async () => {
    const strangers = await Promise.all(Array.from({ length: 5 }, (_, i) => makeSigningKey('RS256', `forged-${i}`)))
    const tokens = await Promise.all(strangers.map((key) => issueToken(key)))
    const authenticator = authenticatorFor()
    expectRight(await verify(authenticator, current))
    const results = await Promise.all(tokens.map((token) => authenticator.verify(expectRight(BearerToken.decode(token)))()))
    for (const result of results) expect(expectLeftTag(result, 'Unauthenticated').reason).to.equal('UnknownKey')
    expect(jwks.requestCount()).to.equal(1)
    // Once the cool-down has passed, one of them makes the set be fetched; it is still not there: 401.
    await sleep(COOLDOWN_MS + 100)
    expect(expectLeftTag(await authenticator.verify(expectRight(BearerToken.decode(tokens[0] ?? '')))(), 'Unauthenticated').reason).to.equal('UnknownKey')
    expect(jwks.requestCount()).to.equal(2)
  })

  it('says in the refusal only an excerpt of the kid the token names, and its length', async () => {
    const authenticator = authenticatorFor()
    expectRight(await verify(authenticator, current))
    const kid = `${'k'.repeat(9_000)}\u001b[31m`
    const token = await issueToken(await makeSigningKey('RS256', 'stranger'), {}, { kid })
    const refusal = expectLeftTag(await authenticator.verify(expectRight(BearerToken.decode(token)))(), 'Unauthenticated')
    expect(refusal.detail).not.to.include('kkk')
    const logged = refusal.cause instanceof Error ? refusal.cause.message : ''
    expect(logged).to.include('9005 characters')
    expect(logged.length).to.be.below(200)
  })

  for (const [label, kid] of [
    ['a number', 42],
    ['an object', { id: 'key-2024' }],
    ['an array', ['key-2024']],
    ['null', null],
    ['empty', ''],
  ] as const) {
    it(`refuses a token whose kid is ${label} as malformed (401), fetching nothing`, async () => {
      const authenticator = authenticatorFor()
      expectRight(await verify(authenticator, current))
      const token = await issueToken(current, {}, { kid })
      const refusal = expectLeftTag(await authenticator.verify(expectRight(BearerToken.decode(token)))(), 'Unauthenticated')
      expect(refusal).to.include({ reason: 'Invalid', detail: 'The access token\'s "kid" header must be a non-empty string.' })
      await sleep(COOLDOWN_MS + 100)
      expectLeftTag(await authenticator.verify(expectRight(BearerToken.decode(token)))(), 'Unauthenticated')
      expect(jwks.requestCount(), 'the set is not fetched again for it, even after the cool-down').to.equal(1)
    })
  }

  it('lets random kids delay a rotation by at most a cool-down: one fetch per cool-down, and the new key is accepted', async () => {
    const authenticator = authenticatorFor()
    expectRight(await verify(authenticator, current))
    const stranger = await makeSigningKey('RS256', 'stranger')
    const refusals = new Set<string>()
    const attack = setInterval(() => {
      void issueToken(stranger, {}, { kid: randomUUID() })
        .then((token) => authenticator.verify(expectRight(BearerToken.decode(token)))())
        .then((result) => refusals.add(result._tag === 'Right' ? 'accepted' : result.left._tag))
    }, 5)
    try {
      await sleep(COOLDOWN_MS + 50)
      const fetchesBefore = jwks.requestCount()
      jwks.publish([current.jwk, next.jwk])
      const published = Date.now()
      let accepted = false
      for (let attempt = 0; attempt < 60 && !accepted; attempt += 1) {
        accepted = (await verify(authenticator, next))._tag === 'Right'
        if (!accepted) await sleep(50)
      }
      const elapsed = Date.now() - published
      expect(accepted, 'the new key is accepted').to.equal(true)
      expect(jwks.requestCount() - fetchesBefore, `fetches in ${elapsed} ms`).to.be.at.most(Math.ceil(elapsed / COOLDOWN_MS) + 1)
      expect([...refusals], 'what the forged tokens got').to.deep.equal(['Unauthenticated'])
    } finally {
      clearInterval(attack)
    }
  })

  it('fetches nothing for a token no one could have issued for this service: another issuer or audience, or expired', async () => {
    const authenticator = authenticatorFor()
    expectRight(await verify(authenticator, current))
    const stranger = await makeSigningKey('RS256', 'stranger')
    await sleep(COOLDOWN_MS + 50)
    for (const claims of [{ iss: 'https://elsewhere.example/' }, { aud: 'another-service' }, { exp: Math.floor(Date.now() / 1000) - 3600 }]) {
      const token = await issueToken(stranger, claims, { kid: randomUUID() })
      expectLeftTag(await authenticator.verify(expectRight(BearerToken.decode(token)))(), 'Unauthenticated')
    }
    expect(jwks.requestCount(), 'no fetch for any of them').to.equal(1)
  })

  it('picks up a rotated-in key on its refresh timer, before any token names it', async () => {
    const authenticator = makeJwtAuthenticator({
      keys: { _tag: 'Jwks', url: jwks.url, algorithms: ['RS256'], cooldownMs: 60_000, timeoutMs: TIMEOUT_MS, refreshIntervalMs: 200 },
      issuer: ISSUER,
      audience: AUDIENCE,
      clockToleranceSeconds: 30,
    })
    expectRight(await verify(authenticator, current))
    jwks.publish([current.jwk, next.jwk])
    await sleep(500)
    expect(expectRight(await verify(authenticator, next)).subject).to.equal(SUBJECT)
  })

  it('keeps accepting tokens whose key it has cached while the provider is down', async () => {
    const authenticator = authenticatorFor()
    expectRight(await verify(authenticator, current))
    await jwks.stop()
    expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
  })

  it('keeps accepting them after the cache has gone stale, as long as the provider cannot be reached', async () => {
    const authenticator = authenticatorFor({ cacheMaxAgeMs: 50 })
    expectRight(await verify(authenticator, current))
    await jwks.stop()
    await sleep(100)
    expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
  })

  it('while the provider cannot be reached, prepares the keys it holds once, not on every request', async () => {
    const authenticator = authenticatorFor({ cacheMaxAgeMs: 50 })
    expectRight(await verify(authenticator, current))
    await jwks.stop()
    await sleep(100)
    // Each preparation of the held keys imports the token's key into Web Crypto anew.
    const subtle = globalThis.crypto.subtle
    const importKey = Reflect.get(subtle, 'importKey') as (...args: unknown[]) => unknown
    let imports = 0
    Object.defineProperty(subtle, 'importKey', {
      configurable: true,
      value: (...args: unknown[]) => {
        imports += 1
        return Reflect.apply(importKey, subtle, args)
      },
    })
    try {
      for (let i = 0; i < 5; i += 1) expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    } finally {
      Reflect.deleteProperty(subtle, 'importKey')
    }
    expect(imports, 'key imports for five tokens').to.be.at.most(1)
  })

  it('still drops a key the provider has withdrawn once the stale cache is refreshed', async () => {
    const authenticator = authenticatorFor({ cacheMaxAgeMs: 50 })
    expectRight(await verify(authenticator, current))
    jwks.publish([next.jwk])
    await sleep(100)
    expectLeftTag(await verify(authenticator, current), 'Unauthenticated')
    expectRight(await verify(authenticator, next))
  })

  it('answers AuthenticationUnavailable when the provider is down and nothing is cached', async () => {
    await jwks.stop()
    const error = expectLeftTag(await verify(authenticatorFor(), current), 'AuthenticationUnavailable')
    expect(error.cause).to.be.instanceOf(Error)
  })

  it('answers AuthenticationUnavailable when the provider is down and no cached key fits the token', async () => {
    const authenticator = authenticatorFor()
    expectRight(await verify(authenticator, current))
    await jwks.stop()
    await sleep(COOLDOWN_MS + 100)
    expectLeftTag(await verify(authenticator, next), 'AuthenticationUnavailable')
    expectRight(await verify(authenticator, current))
  })

  // The answer comes when the fetch's time-out gives up on the provider, not on anything else the
  // test could see: said by its cause, with no bound on the wall clock.
  it('answers AuthenticationUnavailable at the timeout when the provider does not answer', async () => {
    jwks.behave('hang')
    const { cause } = expectLeftTag(await verify(authenticatorFor(), current), 'AuthenticationUnavailable')
    expect(cause).to.have.property('code', 'ERR_JWKS_TIMEOUT')
  })

  it('after a failed fetch, waits the cool-down before asking the provider again, then recovers', async () => {
    jwks.behave('fail')
    const authenticator = authenticatorFor()
    for (let i = 0; i < 5; i += 1) expectLeftTag(await verify(authenticator, current), 'AuthenticationUnavailable')
    expect(jwks.requestCount()).to.equal(1)

    jwks.behave('serve')
    await sleep(COOLDOWN_MS + 100)
    expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    expect(jwks.requestCount()).to.equal(2)
  })

  describe('a flood of tokens naming random kids', () => {
    const flood = async (authenticator: Authenticator, count: number): Promise<Array<E.Either<AuthError, Identity>>> => {
      const stranger = await makeSigningKey('RS256', 'stranger')
      const tokens = await Promise.all(
        Array.from({ length: count }, () => issueToken(stranger, {}, { kid: randomUUID() })),
      )
      const results = []
      // In waves, as clients keep sending them, so that fetches can finish between tokens.
      for (let wave = 0; wave < tokens.length; wave += 20) {
        const slice = tokens.slice(wave, wave + 20)
        results.push(...(await Promise.all(slice.map((token) => authenticator.verify(expectRight(BearerToken.decode(token)))()))))
        await sleep(5)
      }
      return results
    }

    it('while the JWKS URL answers 200 with something that is not a key set: one fetch per cool-down', async () => {
      jwks.behave('notKeySet')
      const authenticator = authenticatorFor()
      const results = await flood(authenticator, 200)
      for (const result of results) expectLeftTag(result, 'AuthenticationUnavailable')
      expect(jwks.requestCount()).to.equal(1)

      jwks.behave('serve')
      await sleep(COOLDOWN_MS + 100)
      expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    })

    it('at most maxFetchesPerMinute fetches in a minute, whatever the tokens say and however short the cool-down', async () => {
      const authenticator = makeJwtAuthenticator({
        keys: { _tag: 'Jwks', url: jwks.url, algorithms: ['RS256'], cooldownMs: 1, timeoutMs: TIMEOUT_MS, maxFetchesPerMinute: 3 },
        issuer: ISSUER,
        audience: AUDIENCE,
        clockToleranceSeconds: 30,
      })
      expectRight(await verify(authenticator, current))
      const results = await flood(authenticator, 200)
      // The provider answers whenever it is asked: a fetch held back by the rate is no outage, so
      // every one of them is refused, never a 503.
      for (const result of results) expect(expectLeftTag(result, 'Unauthenticated').reason).to.equal('UnknownKey')
      expect(jwks.requestCount()).to.equal(3)
      // The keys fetched before keep serving the tokens they sign.
      expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    })

    it('while the provider is down: 503 for keys not cached, the cached ones still accepted', async () => {
      const authenticator = authenticatorFor()
      expectRight(await verify(authenticator, current))
      await jwks.stop()
      await sleep(COOLDOWN_MS + 100)
      const results = await flood(authenticator, 40)
      for (const result of results) expectLeftTag(result, 'AuthenticationUnavailable')
      expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    })
  })

  describe('a key set larger than its bounds is a failed fetch; the keys held keep serving', () => {
    const fillerKeys = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ ...current.jwk, kid: `filler-${i}` }))

    it(`more than DEFAULT_JWKS_OPTIONS.maxKeySetBytes (${DEFAULT_JWKS_OPTIONS.maxKeySetBytes} bytes)`, async () => {
      const authenticator = authenticatorFor({ cacheMaxAgeMs: 50 })
      expectRight(await verify(authenticator, current))
      jwks.publish([current.jwk, next.jwk, { kty: 'oct', kid: 'padding', k: 'A'.repeat(DEFAULT_JWKS_OPTIONS.maxKeySetBytes) }])
      await sleep(100)
      expectLeftTag(await verify(authenticator, next), 'AuthenticationUnavailable')
      expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    })

    it(`more than DEFAULT_JWKS_OPTIONS.maxKeys (${DEFAULT_JWKS_OPTIONS.maxKeys}) keys`, async () => {
      const authenticator = authenticatorFor({ cacheMaxAgeMs: 50 })
      expectRight(await verify(authenticator, current))
      jwks.publish([current.jwk, next.jwk, ...fillerKeys(DEFAULT_JWKS_OPTIONS.maxKeys - 1)])
      await sleep(100)
      expectLeftTag(await verify(authenticator, next), 'AuthenticationUnavailable')
      expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    })

    it('the bounds given in the source', async () => {
      const authenticator = makeJwtAuthenticator({
        keys: { _tag: 'Jwks', url: jwks.url, algorithms: ['RS256'], cooldownMs: COOLDOWN_MS, timeoutMs: TIMEOUT_MS, maxKeys: 3, maxKeySetBytes: 8_192 },
        issuer: ISSUER,
        audience: AUDIENCE,
        clockToleranceSeconds: 30,
      })
      jwks.publish([current.jwk, ...fillerKeys(3)])
      expectLeftTag(await verify(authenticator, current), 'AuthenticationUnavailable')
      jwks.publish([current.jwk, ...fillerKeys(2)])
      await sleep(COOLDOWN_MS + 100)
      expectRight(await verify(authenticator, current))
    })

    it('a key set that never ends is read no further than the bound, and answered at once', async () => {
      jwks.behave('endless')
      const authenticator = makeJwtAuthenticator({
        keys: { _tag: 'Jwks', url: jwks.url, algorithms: ['RS256'], cooldownMs: COOLDOWN_MS, timeoutMs: 8_000 },
        issuer: ISSUER,
        audience: AUDIENCE,
        clockToleranceSeconds: 30,
      })
      // Given up at the bound, not at the fetch's time-out: said by its cause, with no bound on the wall clock.
      const { cause } = expectLeftTag(await verify(authenticator, current), 'AuthenticationUnavailable')
      expect(String((cause as Error).message)).to.match(/larger than \d+ bytes/)
      await sleep(100)
      expect(jwks.endlessBytesWritten()).to.be.below(16 * DEFAULT_JWKS_OPTIONS.maxKeySetBytes)
    })
  })

  it('recovers when a stopped provider comes back', async () => {
    await jwks.stop()
    const authenticator = authenticatorFor()
    expectLeftTag(await verify(authenticator, current), 'AuthenticationUnavailable')
    await jwks.restart()
    await sleep(COOLDOWN_MS + 100)
    expectRight(await verify(authenticator, current))
  })
})
