import { expect } from 'chai'
import { randomUUID } from 'node:crypto'
import type * as E from 'fp-ts/lib/Either.js'
import { DEFAULT_JWKS_OPTIONS, makeJwtAuthenticator, type JwksKeySource, type JwtAuthenticatorOptions } from '../../../../adapters/jwt/index.js'
import { BearerToken, type AuthError, type Authenticator, type Identity } from '../../../../core/index.js'
import { expectLeftTag, expectRight } from '../../../support/either.js'
import { startJwksServer, type JwksServer } from '../../../support/jwt/jwks-server.js'
import { virtualClock, type VirtualClock } from '../../../support/virtual-clock.js'
import { AUDIENCE, ISSUER, issueToken, makeSigningKey, sleep, SUBJECT, type SigningKey } from '../../../support/jwt/tokens.js'

const { cooldownMs: COOLDOWN_MS, timeoutMs: TIMEOUT_MS } = DEFAULT_JWKS_OPTIONS
// A stale cache in the tests that need one: well within a cool-down, as an embedder may set it.
const CACHE_MAX_AGE_MS = 1_000

// The key set's times are on a virtual clock that starts at the wall clock's time (the tokens are
// issued on it) and moves only when a test moves it, so no cool-down, cache age or time-out
// passes while a fetch is out on the socket, however loaded the machine.
describe('JWT authenticator with a JWKS URL', () => {
  let current: SigningKey
  let next: SigningKey
  let jwks: JwksServer
  let time: VirtualClock

  before(async () => {
    ;[current, next] = await Promise.all([makeSigningKey('RS256', 'key-2024'), makeSigningKey('RS256', 'key-2025')])
  })
  beforeEach(async () => {
    jwks = await startJwksServer([current.jwk])
    time = virtualClock(Date.now())
  })
  afterEach(() => jwks.stop())

  const jwksSource = (options: Partial<Omit<JwksKeySource, '_tag' | 'url' | 'algorithms'>> = {}): JwtAuthenticatorOptions => ({
    keys: { _tag: 'Jwks', url: jwks.url, algorithms: ['RS256'], ...options },
    issuer: ISSUER,
    audience: AUDIENCE,
    clockToleranceSeconds: 30,
    clock: time.clock,
  })
  const authenticatorFor = (options: Partial<Omit<JwksKeySource, '_tag' | 'url' | 'algorithms'>> = {}): Authenticator => makeJwtAuthenticator(jwksSource(options))

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
    await time.advanceAsync(COOLDOWN_MS - 1)
    expect(expectLeftTag(await verify(authenticator, next), 'Unauthenticated').reason).to.equal('UnknownKey')
    expect(jwks.requestCount()).to.equal(1)

    await time.advanceAsync(1)
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
    await time.advanceAsync(COOLDOWN_MS)
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
      await time.advanceAsync(COOLDOWN_MS)
      expectLeftTag(await authenticator.verify(expectRight(BearerToken.decode(token)))(), 'Unauthenticated')
      expect(jwks.requestCount(), 'the set is not fetched again for it, even after the cool-down').to.equal(1)
    })
  }

  it('lets random kids delay a rotation by at most a cool-down: one fetch per cool-down, and the new key is accepted', async () => {
    const authenticator = authenticatorFor()
    expectRight(await verify(authenticator, current))
    const stranger = await makeSigningKey('RS256', 'stranger')
    const refusals = new Set<string>()
    const forge = async (): Promise<void> => {
      const result = await authenticator.verify(expectRight(BearerToken.decode(await issueToken(stranger, {}, { kid: randomUUID() }))))()
      refusals.add(result._tag === 'Right' ? 'accepted' : result.left._tag)
    }
    // Forged tokens every second, from the first fetch on; the key is rotated in a while after the
    // fetch a forged token made once the first cool-down was over.
    const publishAt = COOLDOWN_MS + COOLDOWN_MS / 3
    let acceptedAt: number | undefined
    for (let at = 1_000; acceptedAt === undefined && at <= publishAt + 2 * COOLDOWN_MS; at += 1_000) {
      await time.advanceAsync(1_000)
      await Promise.all([forge(), forge(), forge()])
      if (at === publishAt) jwks.publish([current.jwk, next.jwk])
      if (at >= publishAt && (await verify(authenticator, next))._tag === 'Right') acceptedAt = at
    }
    expect(acceptedAt, 'the new key is accepted').to.be.a('number')
    const elapsed = acceptedAt ?? 0
    expect(elapsed - publishAt, 'how long after the rotation').to.be.at.most(COOLDOWN_MS)
    expect(jwks.requestCount(), `fetches in ${elapsed} ms`).to.be.at.most(1 + Math.floor(elapsed / COOLDOWN_MS))
    expect([...refusals], 'what the forged tokens got').to.deep.equal(['Unauthenticated'])
  })

  it('fetches nothing for a token no one could have issued for this service: another issuer or audience, or expired', async () => {
    const authenticator = authenticatorFor()
    expectRight(await verify(authenticator, current))
    const stranger = await makeSigningKey('RS256', 'stranger')
    await time.advanceAsync(COOLDOWN_MS)
    for (const claims of [{ iss: 'https://elsewhere.example/' }, { aud: 'another-service' }, { exp: Math.floor(Date.now() / 1000) - 3600 }]) {
      const token = await issueToken(stranger, claims, { kid: randomUUID() })
      expectLeftTag(await authenticator.verify(expectRight(BearerToken.decode(token)))(), 'Unauthenticated')
    }
    expect(jwks.requestCount(), 'no fetch for any of them').to.equal(1)
  })

  it('picks up a rotated-in key on its refresh timer, before any token names it', async () => {
    const refreshIntervalMs = 10_000
    const authenticator = authenticatorFor({ cooldownMs: 60_000, refreshIntervalMs })
    expectRight(await verify(authenticator, current))
    jwks.publish([current.jwk, next.jwk])
    expect(expectLeftTag(await verify(authenticator, next), 'Unauthenticated').reason, 'within the cool-down').to.equal('UnknownKey')
    // The timer's fetch is out on the socket once the clock has passed the interval: the token
    // joins it, still within the cool-down that would let it make no fetch of its own.
    await time.advanceAsync(refreshIntervalMs)
    expect(expectRight(await verify(authenticator, next)).subject).to.equal(SUBJECT)
    expect(jwks.requestCount()).to.equal(2)
  })

  it('keeps accepting tokens whose key it has cached while the provider is down', async () => {
    const authenticator = authenticatorFor()
    expectRight(await verify(authenticator, current))
    await jwks.stop()
    expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
  })

  it('keeps accepting them after the cache has gone stale, as long as the provider cannot be reached', async () => {
    const authenticator = authenticatorFor({ cacheMaxAgeMs: CACHE_MAX_AGE_MS })
    expectRight(await verify(authenticator, current))
    await jwks.stop()
    await time.advanceAsync(CACHE_MAX_AGE_MS)
    expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
  })

  it('while the provider cannot be reached, prepares the keys it holds once, not on every request', async () => {
    const authenticator = authenticatorFor({ cacheMaxAgeMs: CACHE_MAX_AGE_MS })
    expectRight(await verify(authenticator, current))
    await jwks.stop()
    await time.advanceAsync(CACHE_MAX_AGE_MS)
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
    const authenticator = authenticatorFor({ cacheMaxAgeMs: CACHE_MAX_AGE_MS })
    expectRight(await verify(authenticator, current))
    jwks.publish([next.jwk])
    await time.advanceAsync(CACHE_MAX_AGE_MS)
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
    await time.advanceAsync(COOLDOWN_MS)
    expectLeftTag(await verify(authenticator, next), 'AuthenticationUnavailable')
    expectRight(await verify(authenticator, current))
  })

  // The answer comes when the fetch's time-out gives up on the provider, as the key set's clock
  // reaches it, and not a millisecond before.
  it('answers AuthenticationUnavailable at the timeout when the provider does not answer', async () => {
    jwks.behave('hang')
    let answered = false
    const answer = verify(authenticatorFor(), current).finally(() => (answered = true))
    while (jwks.requestCount() === 0) await sleep(5)
    await time.advanceAsync(TIMEOUT_MS - 1)
    expect(answered, 'answered before the time-out').to.equal(false)
    await time.advanceAsync(1)
    const { cause } = expectLeftTag(await answer, 'AuthenticationUnavailable')
    expect(cause).to.have.property('code', 'ERR_JWKS_TIMEOUT')
  })

  it('after a failed fetch, waits the cool-down before asking the provider again, then recovers', async () => {
    jwks.behave('fail')
    const authenticator = authenticatorFor()
    for (let i = 0; i < 5; i += 1) expectLeftTag(await verify(authenticator, current), 'AuthenticationUnavailable')
    expect(jwks.requestCount()).to.equal(1)

    jwks.behave('serve')
    await time.advanceAsync(COOLDOWN_MS - 1)
    expectLeftTag(await verify(authenticator, current), 'AuthenticationUnavailable')
    expect(jwks.requestCount()).to.equal(1)
    await time.advanceAsync(1)
    expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    expect(jwks.requestCount()).to.equal(2)
  })

  describe('a flood of tokens naming random kids', () => {
    // In waves of 20, as clients keep sending them, each wave `everyMs` of the key set's time
    // after the one before.
    const flood = async (authenticator: Authenticator, count: number, everyMs = 0): Promise<Array<E.Either<AuthError, Identity>>> => {
      const stranger = await makeSigningKey('RS256', 'stranger')
      const tokens = await Promise.all(
        Array.from({ length: count }, () => issueToken(stranger, {}, { kid: randomUUID() })),
      )
      const results = []
      for (let wave = 0; wave < tokens.length; wave += 20) {
        await time.advanceAsync(everyMs)
        const slice = tokens.slice(wave, wave + 20)
        results.push(...(await Promise.all(slice.map((token) => authenticator.verify(expectRight(BearerToken.decode(token)))()))))
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
      await time.advanceAsync(COOLDOWN_MS)
      expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    })

    it('at most maxFetchesPerMinute fetches in a minute, whatever the tokens say and however short the cool-down', async () => {
      const authenticator = authenticatorFor({ cooldownMs: 1, maxFetchesPerMinute: 3 })
      expectRight(await verify(authenticator, current))
      // Ten waves a second apart: every one past a cool-down, all within the minute.
      const results = await flood(authenticator, 200, 1_000)
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
      await time.advanceAsync(COOLDOWN_MS)
      const results = await flood(authenticator, 40)
      for (const result of results) expectLeftTag(result, 'AuthenticationUnavailable')
      expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    })
  })

  describe('a key set larger than its bounds is a failed fetch; the keys held keep serving', () => {
    const fillerKeys = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ ...current.jwk, kid: `filler-${i}` }))

    it(`more than DEFAULT_JWKS_OPTIONS.maxKeySetBytes (${DEFAULT_JWKS_OPTIONS.maxKeySetBytes} bytes)`, async () => {
      const authenticator = authenticatorFor({ cacheMaxAgeMs: CACHE_MAX_AGE_MS })
      expectRight(await verify(authenticator, current))
      jwks.publish([current.jwk, next.jwk, { kty: 'oct', kid: 'padding', k: 'A'.repeat(DEFAULT_JWKS_OPTIONS.maxKeySetBytes) }])
      await time.advanceAsync(CACHE_MAX_AGE_MS)
      expectLeftTag(await verify(authenticator, next), 'AuthenticationUnavailable')
      expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    })

    it(`more than DEFAULT_JWKS_OPTIONS.maxKeys (${DEFAULT_JWKS_OPTIONS.maxKeys}) keys`, async () => {
      const authenticator = authenticatorFor({ cacheMaxAgeMs: CACHE_MAX_AGE_MS })
      expectRight(await verify(authenticator, current))
      jwks.publish([current.jwk, next.jwk, ...fillerKeys(DEFAULT_JWKS_OPTIONS.maxKeys - 1)])
      await time.advanceAsync(CACHE_MAX_AGE_MS)
      expectLeftTag(await verify(authenticator, next), 'AuthenticationUnavailable')
      expect(expectRight(await verify(authenticator, current)).subject).to.equal(SUBJECT)
    })

    it('the bounds given in the source', async () => {
      const authenticator = authenticatorFor({ maxKeys: 3, maxKeySetBytes: 8_192 })
      jwks.publish([current.jwk, ...fillerKeys(3)])
      expectLeftTag(await verify(authenticator, current), 'AuthenticationUnavailable')
      jwks.publish([current.jwk, ...fillerKeys(2)])
      await time.advanceAsync(COOLDOWN_MS)
      expectRight(await verify(authenticator, current))
    })

    it('a key set that never ends is read no further than the bound, and answered at once', async () => {
      jwks.behave('endless')
      const authenticator = authenticatorFor()
      // Given up at the bound: the fetch's time-out cannot fire, as the key set's clock does not move.
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
    await time.advanceAsync(COOLDOWN_MS)
    expectRight(await verify(authenticator, current))
  })
})
