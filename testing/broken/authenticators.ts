import * as TE from 'fp-ts/lib/TaskEither.js'
import { unauthenticated, type Authenticator, type Identity } from '../../core/index.js'
import type { AuthenticatorFixtureFactory } from '../authenticator-contract.js'

// Authenticators with one mistake each, for the kit's self-test; and a correct one beside them.

const KNOWN = 'kit-known-credential-0123456789'
const UNKNOWN = ['kit-unknown-credential-0123456789', `${KNOWN}x`]
const IDENTITY: Identity = { subject: 'kit-subject', scopes: [] }

const fixtureOf =
  (authenticator: Authenticator): AuthenticatorFixtureFactory =>
  async () => ({ authenticator, known: [{ token: KNOWN, identity: IDENTITY }], unknown: UNKNOWN, release: async () => undefined })

/**
 * A correct authenticator of one static credential.
 *
 * @example
 * ```ts
 * import { authenticatorContract, correctAuthenticator, runContract } from 'plant-store/testing'
 *
 * const outcomes = await runContract(authenticatorContract('one static token', correctAuthenticator))
 * ```
 */
export const correctAuthenticator: AuthenticatorFixtureFactory = fixtureOf({
  verify: (token) => (token === KNOWN ? TE.right(IDENTITY) : TE.left(unauthenticated('Invalid', 'The access token is not accepted.'))),
})

/**
 * The broken authenticators, each with the rule the kit must report it breaking:
 * - `tokenInError` repeats the refused token in its error's detail, from where it reaches logs;
 * - `emptySubject` accepts the known credential as nobody (an empty subject);
 * - `acceptsAnything` takes every token for the known identity.
 */
export const brokenAuthenticators: Readonly<Record<string, { readonly breaks: string; readonly fixture: AuthenticatorFixtureFactory }>> = {
  tokenInError: {
    breaks: 'authenticator/no-token-in-errors',
    fixture: fixtureOf({
      verify: (token) => (token === KNOWN ? TE.right(IDENTITY) : TE.left(unauthenticated('Invalid', `Token ${token} is not accepted.`))),
    }),
  },
  emptySubject: {
    breaks: 'authenticator/subject-not-empty',
    fixture: async () => ({
      authenticator: { verify: (token) => (token === KNOWN ? TE.right({ subject: '', scopes: [] }) : TE.left(unauthenticated('Invalid', 'No.'))) },
      known: [{ token: KNOWN, identity: { subject: '', scopes: [] } }],
      unknown: UNKNOWN,
      release: async () => undefined,
    }),
  },
  acceptsAnything: { breaks: 'authenticator/refuses-unknown', fixture: fixtureOf({ verify: () => TE.right(IDENTITY) }) },
}
