import * as t from 'io-ts'

export interface BearerTokenBrand {
  readonly BearerToken: unique symbol
}

/** A credential as RFC 6750 defines it (`b64token`): what follows `Bearer ` in the header. */
export type BearerToken = t.Branded<string, BearerTokenBrand>

// RFC 6750 section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const b64token = /^[A-Za-z0-9\-._~+/]+=*$/

export const BearerToken = t.brand(
  t.string,
  (s): s is BearerToken => b64token.test(s),
  'BearerToken',
)
