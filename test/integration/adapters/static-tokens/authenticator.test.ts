import { expect } from 'chai'
import fc from 'fast-check'
import { makeStaticTokenAuthenticator } from '../../../../adapters/static-tokens/authenticator.js'
import type { Authenticator } from '../../../../core/index.js'
import { authenticatorContract } from '../../../contract/authenticator.contract.js'
import { expectLeftTag, expectRight } from '../../../support/either.js'
import { bearerToken } from '../../../support/fakes.js'
import { propertyRuns } from '../../../support/property-runs.js'

const B64TOKEN_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/'

// At least 16 characters, so a token cannot turn up by chance inside a fixed message or subject.
const tokenText = fc.string({ unit: fc.constantFrom(...B64TOKEN_CHARACTERS), minLength: 16, maxLength: 40 })
const configuredTokens = fc.uniqueArray(tokenText, { minLength: 1, maxLength: 5 })

const verify = async (authenticator: Authenticator, text: string) => authenticator.verify(bearerToken(text))()

/** Texts that are not the token but come close: a prefix, a longer token, one character changed. */
const nearMisses = (token: string): ReadonlyArray<string> => {
  const last = token.slice(-1)
  const swapped = last === 'a' ? 'b' : 'a'
  const caseFlipped = token.replace(/[A-Za-z]/, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
  return [token.slice(0, -1), `${token}a`, `${token}=`, `${token.slice(0, -1)}${swapped}`, `a${token}`, caseFlipped]
    .filter((text) => text !== token)
}

authenticatorContract('static tokens', async () => {
  const tokens = ['first-static-token-0123456789', 'second-static-token-0123456789']
  return {
    authenticator: makeStaticTokenAuthenticator(tokens),
    known: tokens.map((token, index) => ({ token, identity: { subject: `static-token-${index + 1}`, scopes: [] } })),
    unknown: ['unknown-static-token-0123456789', ...nearMisses('first-static-token-0123456789')],
    release: async () => {},
  }
})

describe('static token authenticator, beyond the contract', function () {
  it('accepts each configured token, naming it by its position and never by its value', async function () {
    await fc.assert(
      fc.asyncProperty(configuredTokens, async (tokens) => {
        const authenticator = makeStaticTokenAuthenticator(tokens)
        for (const [index, token] of tokens.entries()) {
          const identity = expectRight(await verify(authenticator, token))
          expect(identity).to.deep.equal({ subject: `static-token-${index + 1}`, scopes: [] })
          expect(identity.subject).not.to.include(token)
        }
      }),
      { numRuns: propertyRuns(50) },
    )
  })

  it('refuses a prefix, a longer token, a changed character or case, without repeating what was sent', async function () {
    await fc.assert(
      fc.asyncProperty(configuredTokens, async (tokens) => {
        const authenticator = makeStaticTokenAuthenticator(tokens)
        for (const token of tokens) {
          for (const presented of nearMisses(token).filter((text) => !tokens.includes(text))) {
            const refusal = expectLeftTag(await verify(authenticator, presented), 'Unauthenticated')
            expect(refusal.reason).to.equal('Invalid')
            expect(refusal.detail).not.to.include(presented)
            expect(refusal.detail).not.to.include(token)
          }
        }
      }),
      { numRuns: propertyRuns(50) },
    )
  })

  it('gives each caller an identity that no earlier caller could change', async function () {
    const authenticator = makeStaticTokenAuthenticator(['only-static-token-0123456789'])
    const first = expectRight(await verify(authenticator, 'only-static-token-0123456789')) as { subject: string; scopes: string[] }
    expect(() => (first.subject = 'someone-else')).to.throw(TypeError)
    expect(() => first.scopes.push('admin')).to.throw(TypeError)
    const second = expectRight(await verify(authenticator, 'only-static-token-0123456789'))
    expect(second).to.deep.equal({ subject: 'static-token-1', scopes: [] })
  })

  it('tells tokens apart that differ only in case', async function () {
    const authenticator = makeStaticTokenAuthenticator(['plant-store-TOKEN-0001', 'plant-store-token-0001'])
    expect(expectRight(await verify(authenticator, 'plant-store-TOKEN-0001')).subject).to.equal('static-token-1')
    expect(expectRight(await verify(authenticator, 'plant-store-token-0001')).subject).to.equal('static-token-2')
    expectLeftTag(await verify(authenticator, 'Plant-Store-Token-0001'), 'Unauthenticated')
  })

  it('names a token listed twice by its first position', async function () {
    const authenticator = makeStaticTokenAuthenticator(['first-token-value', 'other-token-value', 'first-token-value'])
    expect(expectRight(await verify(authenticator, 'first-token-value')).subject).to.equal('static-token-1')
  })

  it('refuses every token when none is configured', async function () {
    await fc.assert(
      fc.asyncProperty(tokenText, async (presented) => {
        const refusal = expectLeftTag(await verify(makeStaticTokenAuthenticator([]), presented), 'Unauthenticated')
        expect(refusal.reason).to.equal('Invalid')
      }),
      { numRuns: propertyRuns(20) },
    )
  })
})
