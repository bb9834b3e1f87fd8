import type { FlattenedJWSInput, JWTPayload } from 'jose'
import type { Clock } from '../../core/index.js'
import { base64url, errors } from './peers.js'

/** What a token must claim to be worth looking its key up: the checks that cost no key. */
export interface ClaimsScreen {
  readonly issuer: string
  readonly audience: string
  readonly clockToleranceSeconds: number
}

/**
 * Throws the JOSE error jwtVerify would throw for a token whose unverified claims cannot pass:
 * another issuer or audience, no `exp`, or expired. Run before the key lookup, it keeps a token
 * no one could have issued for this service from making the service fetch the key set; the
 * signature and every claim are still checked in full afterwards. Expired: `exp` is at or before
 * the clock's time (`epochMs`) less the tolerance, as jwtVerify judges it.
 */
export const screenClaims =
  ({ issuer, audience, clockToleranceSeconds }: ClaimsScreen, { epochMs }: Pick<Clock, 'epochMs'>) =>
  (token: FlattenedJWSInput): void => {
    const payload = payloadOf(token)
    const audiences = typeof payload.aud === 'string' ? [payload.aud] : Array.isArray(payload.aud) ? payload.aud : []
    if (payload.iss !== issuer) throw new errors.JWTClaimValidationFailed('unexpected "iss" claim value', payload, 'iss', 'check_failed')
    if (!audiences.includes(audience)) throw new errors.JWTClaimValidationFailed('unexpected "aud" claim value', payload, 'aud', 'check_failed')
    if (typeof payload.exp !== 'number') throw new errors.JWTClaimValidationFailed('missing required "exp" claim', payload, 'exp', 'missing')
    if (payload.exp <= epochMs() / 1000 - clockToleranceSeconds) throw new errors.JWTExpired('"exp" claim timestamp check failed', payload, 'exp', 'check_failed')
  }

const payloadOf = ({ payload }: FlattenedJWSInput): JWTPayload => {
  try {
    const text = typeof payload === 'string' ? new TextDecoder().decode(base64url.decode(payload)) : new TextDecoder().decode(payload)
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as JWTPayload
  } catch {
    // not JSON: refused below as jwtVerify would refuse it
  }
  throw new errors.JWTInvalid('JWT Claims Set must be a top-level JSON object')
}
