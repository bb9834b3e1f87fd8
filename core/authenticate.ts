import * as TE from 'fp-ts/lib/TaskEither.js'
import * as E from 'fp-ts/lib/Either.js'
import type { BearerToken } from './bearer-token.js'
import type { AuthError } from './errors.js'
import type { Authenticator, Identity } from './ports/authenticator.js'

declare const principalBrand: unique symbol

/**
 * An identity vouched for by an authenticator. Only `authenticate` mints one, so code that has a
 * Principal has, by its type, gone through authentication.
 */
export interface Principal extends Identity {
  readonly [principalBrand]: true
}

export interface AuthenticateDeps {
  readonly authenticator: Authenticator
}

/**
 * Verifies a bearer token and, when it is accepted, vouches for its owner as a Principal.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { authenticate, BearerToken } from 'plant-store/core'
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 *
 * const token = BearerToken.decode('s3cret-token')
 * if (E.isRight(token)) {
 *   const principal = await authenticate({ authenticator: makeStaticTokenAuthenticator(['s3cret-token']) })(token.right)()
 *   if (E.isRight(principal)) console.log(principal.right.subject)
 * }
 * ```
 */
export const authenticate =
  ({ authenticator }: AuthenticateDeps) =>
  (token: BearerToken): TE.TaskEither<AuthError, Principal> => {
    const verify = authenticator.verify(token)
    // One async step, not TE.map: measured (see docs/contributing.md, the hot path).
    return async () => {
      const identity = await verify()
      return E.isLeft(identity) ? identity : E.right(vouchFor(identity.right))
    }
  }

// The only place a Principal is made: the brand is the proof that an authenticator ran.
const vouchFor = (identity: Identity): Principal =>
  ({ subject: identity.subject, scopes: identity.scopes }) as Principal
