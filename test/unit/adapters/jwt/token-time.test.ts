import { expect } from 'chai'
import fc from 'fast-check'
import { SignJWT, base64url, errors } from 'jose'
import { makeJwtAuthenticator } from '../../../../adapters/jwt/index.js'
import { screenClaims } from '../../../../adapters/jwt/claims-screen.js'
import { fetchAdmission } from '../../../../adapters/jwt/key-set-fetch.js'
import { BearerToken } from '../../../../core/index.js'
import { expectRight } from '../../../support/either.js'
import { virtualClock } from '../../../support/virtual-clock.js'

const ISSUER = 'https://issuer.test'
const AUDIENCE = 'plant-store'
const SECRET = new TextEncoder().encode('a-secret-of-32-bytes-or-more-for-hs256!!')
const NOW_S = Date.UTC(2026, 0, 1) / 1000

// The rules, as the JWT adapter states them: a token is expired when its `exp` is at or before the
// clock's time less the tolerance, and not yet valid when its `nbf` is after the time plus the
// tolerance (jwtVerify's, on the authenticator's clock); the claims screen refuses an expired
// token as jwtVerify would. The key set may be fetched unless a fetch failed less than the
// cool-down ago, or the fetch is for a key the set does not hold and one ended less than the
// cool-down ago, or maxPerMinute fetches started in the last 60 s.
describe('token expiry and the key set cool-down, on virtual time', () => {
  const times = fc.record({
    tolerance: fc.integer({ min: 0, max: 120 }),
    exp: fc.integer({ min: -400, max: 400 }),
    nbf: fc.option(fc.integer({ min: -400, max: 400 }), { nil: undefined }),
    later: fc.integer({ min: 0, max: 300 }),
  })

  it('accepts a token exactly while the clock is within its exp and nbf, give or take the tolerance', async () => {
    await fc.assert(
      fc.asyncProperty(times, async ({ tolerance, exp, nbf, later }) => {
        const { clock, advance } = virtualClock()
        const claims = { exp: NOW_S + exp, ...(nbf === undefined ? {} : { nbf: NOW_S + nbf }) }
        const token = await new SignJWT({ sub: 'someone', ...claims }).setProtectedHeader({ alg: 'HS256' }).setIssuer(ISSUER).setAudience(AUDIENCE).sign(SECRET)
        const authenticator = makeJwtAuthenticator({
          keys: { _tag: 'Secret', secret: SECRET, algorithms: ['HS256'] },
          issuer: ISSUER,
          audience: AUDIENCE,
          clockToleranceSeconds: tolerance,
          clock,
        })
        advance(later * 1000)
        const now = NOW_S + later
        const valid = claims.exp > now - tolerance && (claims.nbf === undefined || claims.nbf <= now + tolerance)
        const verdict = await authenticator.verify(expectRight(BearerToken.decode(token)))()
        expect(verdict._tag, `exp ${claims.exp - now} s and nbf ${claims.nbf === undefined ? 'none' : claims.nbf - now} s from now, tolerance ${tolerance} s`).to.equal(valid ? 'Right' : 'Left')
      }),
    )
  })

  it('screens out, before any key is looked up, exactly the tokens jwtVerify would find expired', () => {
    fc.assert(
      fc.property(times, ({ tolerance, exp, later }) => {
        const { clock, advance } = virtualClock()
        const screen = screenClaims({ issuer: ISSUER, audience: AUDIENCE, clockToleranceSeconds: tolerance }, clock)
        const payload = base64url.encode(JSON.stringify({ iss: ISSUER, aud: AUDIENCE, exp: NOW_S + exp }))
        advance(later * 1000)
        const expired = NOW_S + exp <= NOW_S + later - tolerance
        if (expired) expect(() => screen({ payload, signature: '', protected: '' })).to.throw(errors.JWTExpired)
        else expect(() => screen({ payload, signature: '', protected: '' })).not.to.throw()
      }),
    )
  })

  const fetches = fc.record({
    // In steps of a second, so that asks fall on the very end of a cool-down or a minute.
    cooldownMs: fc.integer({ min: 0, max: 60 }).map((s) => s * 1000),
    maxPerMinute: fc.integer({ min: 1, max: 6 }),
    // How long after the one before each fetch is asked for, why, how long it takes once made and
    // whether it fails.
    asks: fc.array(
      fc.record({
        gap: fc.integer({ min: 0, max: 40 }).map((s) => s * 1000),
        reason: fc.constantFrom('unknownKey' as const, 'refresh' as const),
        takes: fc.integer({ min: 0, max: 5 }).map((s) => s * 1000),
        fails: fc.boolean(),
      }),
      { maxLength: 40 },
    ),
  })

  it('lets a fetch start unless one failed within the cool-down, one ended within it for an unknown key, or the minute already holds its fetches', () => {
    fc.assert(
      fc.property(fetches, ({ cooldownMs, maxPerMinute, asks }) => {
        const { clock, advance } = virtualClock()
        const admission = fetchAdmission({ cooldownMs, maxPerMinute }, clock)
        const started: number[] = []
        let endedAt: number | undefined
        let failedAt: number | undefined
        for (const { gap, reason, takes, fails } of asks) {
          advance(gap)
          const now = clock.now()
          const afterFailure = failedAt !== undefined && now - failedAt < cooldownMs
          const afterFetch = reason === 'unknownKey' && endedAt !== undefined && now - endedAt < cooldownMs
          const minuteFull = started.filter((at) => now - at < 60_000).length >= maxPerMinute
          const refusal = admission.refusal(reason)
          expect(refusal === undefined, `asked at ${now} ms for ${reason}`).to.equal(!afterFailure && !afterFetch && !minuteFull)
          if (refusal !== undefined) continue
          started.push(now)
          advance(takes)
          endedAt = clock.now()
          if (fails) failedAt = endedAt
          admission.ended(fails ? { error: new Error('the provider failed') } : undefined)
        }
      }),
    )
  })
})
