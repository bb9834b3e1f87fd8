import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as t from 'io-ts'
import {
  insufficientScope,
  unauthenticated,
  type Identity,
  type InsufficientScope,
  type Unauthenticated,
} from '../../core/index.js'
import type { ScopeToken } from './scope-token.js'

const NonEmptyString = t.refinement(t.string, (s) => s.length > 0, 'NonEmptyString')

// Scopes as a space-separated string or as a list of strings.
const ScopeClaim = t.union([t.string, t.readonlyArray(t.string)])

/**
 * The claims that say who a verified token belongs to: `sub`, and the granted scopes in `scope`
 * (RFC 8693, RFC 9068: a space-separated string) or `scp` (Okta: a list; Entra ID: a string).
 * Either claim is read in either form; `scope` wins when both are present.
 */
const IdentityClaims = t.intersection([t.type({ sub: NonEmptyString }), t.partial({ scope: ScopeClaim, scp: ScopeClaim })])
type IdentityClaims = t.TypeOf<typeof IdentityClaims>

/** Reads the identity out of a verified token's claims, or says why they do not name one. */
export const identityFromClaims = (payload: unknown): E.Either<Unauthenticated, Identity> =>
  pipe(
    IdentityClaims.decode(payload),
    E.bimap(
      () => unauthenticated('Invalid', 'The access token needs a non-empty "sub", and scopes as a string or a list of strings.'),
      (claims) => ({ subject: claims.sub, scopes: scopesOf(claims) }),
    ),
  )

const scopesOf = ({ scope, scp }: IdentityClaims): ReadonlyArray<string> => {
  const granted = scope ?? scp ?? []
  return typeof granted === 'string' ? granted.split(' ').filter((s) => s !== '') : granted
}

/** Passes an identity that grants the required scope; with no scope required, passes every one. */
export const requireScope =
  (requiredScope: ScopeToken | undefined) =>
  (identity: Identity): E.Either<InsufficientScope, Identity> =>
    requiredScope === undefined || identity.scopes.includes(requiredScope)
      ? E.right(identity)
      : E.left(insufficientScope(requiredScope))
