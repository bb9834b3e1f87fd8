import type { TaskEither } from 'fp-ts/lib/TaskEither.js'
import type { BearerToken } from '../bearer-token.js'
import type { AuthError } from '../errors.js'

/** Who an authenticator says a credential belongs to, as the authenticator reports it. */
export interface Identity {
  /** A stable identifier of the caller, fit for a log line (never the credential itself). */
  readonly subject: string
  /** The scopes the credential grants; empty when the authenticator has no notion of scope. */
  readonly scopes: ReadonlyArray<string>
}

/** Decides whose a bearer credential is. */
export interface Authenticator {
  /**
   * Answers the identity the token stands for, `Unauthenticated` when the token is not accepted,
   * `InsufficientScope` when it is but lacks a scope this authenticator requires, or
   * `AuthenticationUnavailable` when the authority behind the tokens cannot be reached.
   */
  readonly verify: (token: BearerToken) => TaskEither<AuthError, Identity>
}
