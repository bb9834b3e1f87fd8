declare const principalBrand: unique symbol

/** Who an authenticator says a credential belongs to, as the authenticator reports it. */
export interface Identity {
  /** A stable identifier of the caller, fit for a log line (never the credential itself). */
  readonly subject: string
  /** The scopes the credential grants; empty when the authenticator has no notion of scope. */
  readonly scopes: ReadonlyArray<string>
}

/**
 * An identity vouched for by an authenticator. Only `authenticate` mints one, so code that has a
 * Principal has, by its type, gone through authentication.
 */
export interface Principal extends Identity {
  readonly [principalBrand]: true
}
