import type { TaskEither } from 'fp-ts/lib/TaskEither.js'
import type { BearerToken } from '../bearer-token.js'
import type { AuthError } from '../errors.js'
import type { Identity } from '../principal.js'

/** Decides whose a bearer credential is. */
export interface Authenticator {
  /**
   * Answers the identity the token stands for, `Unauthenticated` when the token is not accepted,
   * `InsufficientScope` when it is but lacks a scope this authenticator requires, or
   * `AuthenticationUnavailable` when the authority behind the tokens cannot be reached.
   */
  readonly verify: (token: BearerToken) => TaskEither<AuthError, Identity>
}
