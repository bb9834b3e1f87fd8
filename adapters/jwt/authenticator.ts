import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { JWTVerifyGetKey, JWTVerifyOptions, JWTVerifyResult, KeyInput } from 'jose'
import type { AuthError, Authenticator, BearerToken, Clock } from '../../core/index.js'
import { toAuthError } from './auth-errors.js'
import { identityFromClaims, requireScope } from './identity-claims.js'
import { ignoreKeySetFetches, type KeySetObserver } from './key-set-observer.js'
import { screenClaims } from './claims-screen.js'
import type { JwtAuthenticatorOptions } from './options.js'
import { makeRemoteKeySet } from './remote-key-set.js'
import { systemClock, wholeNumberOption } from '../../wire/index.js'
import { jwtVerify } from './peers.js'

/**
 * Accepts JWT access tokens signed by the configured keys, checking `iss`, `aud`, `exp` and
 * `nbf` (with the configured clock tolerance) and, when configured, a required scope. A token
 * without `exp` or `sub` is refused: one never expires, the other names no one. The identity's
 * subject is the `sub` claim; its scopes come from `scope` or `scp`. Fetches of a remote key set
 * are reported to the observer. A number option that is not a whole number in its range (see
 * `JwksKeySource`) is a RangeError naming it, thrown here.
 *
 * @example
 * ```ts
 * import { makeJwtAuthenticator } from 'plant-store/adapters/jwt'
 *
 * const authenticator = makeJwtAuthenticator({
 *   keys: { _tag: 'Jwks', url: new URL('https://id.example.com/.well-known/jwks.json'), algorithms: ['RS256'] },
 *   issuer: 'https://id.example.com/',
 *   audience: 'plant-store',
 *   clockToleranceSeconds: 30,
 * })
 * ```
 */
export const makeJwtAuthenticator = (
  options: JwtAuthenticatorOptions,
  keySetObserver: KeySetObserver = ignoreKeySetFetches,
): Authenticator => {
  // A tolerance of NaN reads as none to jose; a string or a negative one is a mistake to name.
  wholeNumberOption('makeJwtAuthenticator', 'clockToleranceSeconds', options.clockToleranceSeconds, 0)
  const clock = options.clock ?? systemClock
  const keys = verificationKeys(options, keySetObserver, clock)
  const keysFromProvider = options.keys._tag === 'Jwks'
  const checks: JWTVerifyOptions = {
    algorithms: [...options.keys.algorithms],
    issuer: options.issuer,
    audience: options.audience,
    clockTolerance: options.clockToleranceSeconds,
    requiredClaims: ['exp', 'sub'],
  }
  return {
    verify: (token: BearerToken) =>
      pipe(
        // toAuthError throws a defect again: the task then rejects instead of answering a Left.
        (): Promise<E.Either<AuthError, JWTVerifyResult>> =>
          jwtVerify(token, keys, { ...checks, currentDate: new Date(clock.epochMs()) }).then(E.right, (failure: unknown) => E.left(toAuthError(failure, keysFromProvider))),
        TE.flatMapEither(({ payload }) => identityFromClaims(payload)),
        TE.flatMapEither(requireScope(options.requiredScope)),
      ),
  }
}

const verificationKeys = (
  { keys: source, issuer, audience, clockToleranceSeconds }: JwtAuthenticatorOptions,
  keySetObserver: KeySetObserver,
  clock: Clock,
): KeyInput | JWTVerifyGetKey => {
  switch (source._tag) {
    case 'Jwks':
      return makeRemoteKeySet(source, keySetObserver, screenClaims({ issuer, audience, clockToleranceSeconds }, clock), clock)
    case 'PublicKey':
      return source.key
    case 'Secret':
      return source.secret
  }
}
