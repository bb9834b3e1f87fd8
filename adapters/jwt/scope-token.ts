import * as t from 'io-ts'

export interface ScopeTokenBrand {
  readonly ScopeToken: unique symbol
}

/**
 * One OAuth scope as RFC 6749 section 3.3 defines it (`scope-token`): printable ASCII without
 * space, `"` or `\`. The grammar is what lets it stand inside a quoted `scope="..."` attribute
 * of a WWW-Authenticate header unescaped.
 */
export type ScopeToken = t.Branded<string, ScopeTokenBrand>

const scopeToken = /^[\x21\x23-\x5B\x5D-\x7E]+$/

export const ScopeToken = t.brand(t.string, (s): s is ScopeToken => scopeToken.test(s), 'ScopeToken')
