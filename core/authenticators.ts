import * as TE from 'fp-ts/lib/TaskEither.js'
import type { ReadonlyNonEmptyArray } from 'fp-ts/lib/ReadonlyNonEmptyArray.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { BearerToken } from './bearer-token.js'
import type { AuthError } from './errors.js'
import type { Authenticator, Identity } from './ports/authenticator.js'

/**
 * One authenticator made of several, asked in order: the first to accept the token answers. A
 * refusal (`Unauthenticated`) passes the token on to the next, and the last refusal is the
 * answer when none accepts, so the last authenticator's reason is the one a client reads. Any
 * other error ends the search: a token that is recognised but lacks a scope is not retried
 * elsewhere, and when an authority is unreachable the token may well have been valid, so the
 * answer is that it cannot be checked now, not that it is wrong.
 *
 * @example
 * ```ts
 * import { firstAccepting } from 'plant-store/core'
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 *
 * // The service's own tokens first, then the operators'.
 * const authenticator = firstAccepting([makeStaticTokenAuthenticator(['service-token']), makeStaticTokenAuthenticator(['operator-token'])])
 * ```
 */
export const firstAccepting = (authenticators: ReadonlyNonEmptyArray<Authenticator>): Authenticator => {
  const [first, ...rest] = authenticators
  // Alone, the first is the answer.
  if (rest.length === 0) return first
  return {
    verify: (token: BearerToken) =>
      rest.reduce<TE.TaskEither<AuthError, Identity>>(
        (earlier, next) =>
          pipe(
            earlier,
            TE.orElse((error) => (error._tag === 'Unauthenticated' ? next.verify(token) : TE.left(error))),
          ),
        first.verify(token),
      ),
  }
}
