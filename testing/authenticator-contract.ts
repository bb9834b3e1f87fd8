import assert from 'node:assert/strict'
import * as E from 'fp-ts/lib/Either.js'
import { BearerToken, type AuthError, type Authenticator, type Identity } from '../core/index.js'
import { show, underRule } from './rules.js'
import type { ContractCase, ContractSuite } from './suite.js'

/** An authenticator for one case, the credentials it knows and refuses, and how to let go of it. */
export interface AuthenticatorFixture {
  readonly authenticator: Authenticator
  /** Credentials it must accept, each with the identity it stands for. */
  readonly known: ReadonlyArray<{ readonly token: string; readonly identity: Identity }>
  /** Credentials it must refuse as `Unauthenticated`: unknown ones, near misses, forgeries. */
  readonly unknown: ReadonlyArray<string>
  readonly release: () => Promise<void>
}

/** Makes the authenticator; it may call `cannotRunHere(reason)`. */
export type AuthenticatorFixtureFactory = () => Promise<AuthenticatorFixture>

const tokenOf = (text: string): BearerToken => {
  const decoded = BearerToken.decode(text)
  if (E.isLeft(decoded)) throw new TypeError('a fixture credential is not a bearer token (RFC 6750 token68)')
  return decoded.right
}

const verify = (fixture: AuthenticatorFixture, token: string): Promise<E.Either<AuthError, Identity>> => fixture.authenticator.verify(tokenOf(token))()

/**
 * A token's pieces worth hiding: the whole, and each dot-separated part long enough not to turn
 * up in a fixed message by chance (a JWT's signature above all).
 *
 * @example
 * ```ts
 * import { tokenPiecesOf } from 'plant-store/testing'
 *
 * const message = 'The access token is not accepted.'
 * const leaks = tokenPiecesOf('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ').filter((piece) => message.includes(piece))
 * ```
 */
export const tokenPiecesOf = (token: string): ReadonlyArray<string> => [token, ...token.split('.').filter((part) => part.length >= 16)]

// The Left as JSON, with what JSON.stringify drops from an Error (message, cause, stack) kept.
const everythingIn = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v instanceof Error ? { name: v.name, message: v.message, cause: v.cause, stack: v.stack } : typeof v === 'bigint' ? String(v) : v,
  )

/**
 * The rules every Authenticator must keep. `fixture` makes one with credentials it knows.
 *
 * @example
 * ```ts
 * import { describe, it } from 'node:test'
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 * import { authenticatorContract } from 'plant-store/testing'
 * import { registerWithNodeTest } from 'plant-store/testing/node-test'
 *
 * const fixture = async () => ({
 *   authenticator: makeStaticTokenAuthenticator(['s3cret-token']),
 *   known: [{ token: 's3cret-token', identity: { subject: 'static-token-1', scopes: [] } }],
 *   unknown: ['s3cret-tokem', 'other'],
 *   release: async () => {},
 * })
 * registerWithNodeTest({ describe, it }, authenticatorContract('static tokens', fixture))
 * ```
 */
export const authenticatorContract = (label: string, fixture: AuthenticatorFixtureFactory): ContractSuite => {
  const rule = (name: string, id: string, statement: string, check: (f: AuthenticatorFixture) => Promise<void>): ContractCase => ({
    name,
    rule: id,
    run: async () => {
      const made = await fixture()
      try {
        assert.ok(made.known.length > 0 && made.unknown.length > 0, 'the fixture names known and unknown credentials')
        await underRule(id, statement, () => check(made))
      } finally {
        await made.release()
      }
    },
  })
  return {
    name: `Authenticator contract: ${label}`,
    cases: [
      rule('accepts a known credential with its subject and scopes', 'authenticator/accepts-known', 'a known credential answers its identity', async (f) => {
        for (const { token, identity } of f.known) {
          const verdict = await verify(f, token)
          assert.ok(E.isRight(verdict), `a known credential was refused: ${show(E.isLeft(verdict) ? verdict.left._tag : '')}`)
          assert.deepStrictEqual(verdict.right, identity)
        }
      }),
      rule('refuses an unknown credential as Unauthenticated', 'authenticator/refuses-unknown', 'an unknown credential answers Left Unauthenticated (Invalid, or UnknownKey)', async (f) => {
        for (const [index, token] of f.unknown.entries()) {
          const verdict = await verify(f, token)
          assert.ok(
            E.isLeft(verdict) && verdict.left._tag === 'Unauthenticated' && verdict.left.reason !== 'Missing',
            `unknown credential #${index} answered ${E.isLeft(verdict) ? verdict.left._tag : 'Right (accepted)'}`,
          )
        }
      }),
      rule('never names an empty subject', 'authenticator/subject-not-empty', 'an accepted credential names a subject that is not empty', async (f) => {
        for (const token of [...f.known.map((k) => k.token), ...f.unknown]) {
          const verdict = await verify(f, token)
          if (E.isRight(verdict)) assert.ok(verdict.right.subject.length > 0, 'a credential was accepted with an empty subject')
        }
      }),
      rule(
        'never repeats the token, or a piece of it, in an error',
        'authenticator/no-token-in-errors',
        'no error value holds the token or a piece of it (errors reach logs)',
        async (f) => {
          for (const [index, token] of f.unknown.entries()) {
            const verdict = await verify(f, token)
            if (E.isRight(verdict)) continue
            const written = everythingIn(verdict.left)
            for (const piece of tokenPiecesOf(token)) assert.ok(!written.includes(piece), `the error for unknown credential #${index} holds a piece of it`)
          }
        },
      ),
    ],
  }
}
