import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import type { AuthError, Authenticator, Identity } from '../../core/index.js'
import { expectLeftTag, expectRight } from '../support/either.js'
import { bearerToken } from '../support/fakes.js'
import { startTestApp } from '../support/http-app.js'

/** How a contract run gets an authenticator, the credentials it knows, and how it lets go of it. */
export interface AuthenticatorFixture {
  readonly authenticator: Authenticator
  /** Credentials it must accept, each with the identity it stands for. */
  readonly known: ReadonlyArray<{ readonly token: string; readonly identity: Identity }>
  /**
   * Credentials it must refuse as `Unauthenticated`: unknown, near misses, forged, and any the
   * adapter could be tricked into reading as naming no one (an empty subject).
   */
  readonly unknown: ReadonlyArray<string>
  readonly release: () => Promise<void>
}

/**
 * The behaviour every Authenticator adapter must show, written once. An adapter's test file
 * calls this with a label and a way to make an authenticator with credentials it knows.
 */
export const authenticatorContract = (label: string, setup: (this: Mocha.Context) => Promise<AuthenticatorFixture>): void => {
  describe(`Authenticator contract: ${label}`, function () {
    let fixture: AuthenticatorFixture | undefined
    const current = (): AuthenticatorFixture => {
      if (fixture === undefined) throw new Error('the contract fixture was not set up')
      return fixture
    }
    const verify = (token: string): Promise<E.Either<AuthError, Identity>> => current().authenticator.verify(bearerToken(token))()

    beforeEach(async function () {
      fixture = await setup.call(this)
      expect(fixture.known.length, 'known credentials in the fixture').to.be.greaterThan(0)
      expect(fixture.unknown.length, 'unknown credentials in the fixture').to.be.greaterThan(0)
    })
    afterEach(async function () {
      await fixture?.release()
      fixture = undefined
    })

    it('accepts a known credential with its subject and scopes', async function () {
      for (const { token, identity } of current().known) {
        expect(expectRight(await verify(token))).to.deep.equal(identity)
      }
    })

    it('refuses an unknown credential as Unauthenticated, Invalid', async function () {
      for (const token of current().unknown) {
        expect(expectLeftTag(await verify(token), 'Unauthenticated').reason, token).to.equal('Invalid')
      }
    })

    it('never names a subject that is empty', async function () {
      for (const token of [...current().known.map((k) => k.token), ...current().unknown]) {
        const verdict = await verify(token)
        if (E.isRight(verdict)) expect(verdict.right.subject.length, `the subject for ${token}`).to.be.greaterThan(0)
      }
    })

    it('never repeats the token, or a piece of it, in an error', async function () {
      for (const token of current().unknown) {
        const verdict = await verify(token)
        if (E.isRight(verdict)) expect.fail(`expected a refusal of ${token}`)
        const error = verdict.left
        for (const piece of piecesOf(token)) {
          if (error._tag === 'Unauthenticated') expect(error.detail).not.to.include(piece)
          expect(showAll(verdict), 'the whole Left, as JSON').not.to.include(piece)
        }
      }
    })

    it('never lets the token reach a log line, whether accepted or refused', async function () {
      const app = await startTestApp({ authenticator: current().authenticator })
      try {
        const sent = [...current().known.map((k) => k.token), ...current().unknown]
        for (const token of sent) {
          const response = await fetch(`${app.url}/plants`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: '{"id":1,"name":"Fern"}',
          })
          await response.arrayBuffer()
        }
        expect(app.log.lines.length, 'one log line per request').to.be.at.least(sent.length)
        const logged = JSON.stringify(app.log.lines)
        for (const piece of sent.flatMap(piecesOf)) expect(logged).not.to.include(piece)
      } finally {
        await app.close()
      }
    })
  })
}

// A JWT's three parts are each worth hiding (the signature most of all); short parts, such as a
// common header, could turn up by chance in a fixed message and prove nothing.
const piecesOf = (token: string): ReadonlyArray<string> => [token, ...token.split('.').filter((part) => part.length >= 16)]

// JSON of the Left, with what JSON.stringify would drop from an Error (message, cause) kept in.
const showAll = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v instanceof Error ? { name: v.name, message: v.message, cause: v.cause, stack: v.stack } : typeof v === 'bigint' ? String(v) : v,
  )
