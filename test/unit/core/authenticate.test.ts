import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import fc from 'fast-check'
import { makeInMemoryPlantStore } from '../../../adapters/in-memory/index.js'
import {
  authenticate,
  authenticationUnavailable,
  createPlant,
  insufficientScope,
  unauthenticated,
  type AuthError,
  type Authenticator,
} from '../../../core/index.js'
import { expectLeftTag, expectRight } from '../../support/either.js'
import { authenticatorAnswering, bearerToken, principalFor } from '../../support/fakes.js'
import { typeErrorsOf } from '../../support/type-probe.js'
import { propertyRuns } from '../../support/property-runs.js'

const token = bearerToken('abc.DEF-123_~+/==')

describe('authenticate', function () {
  it('vouches for the identity the authenticator accepts, with the same subject and scopes', async function () {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.array(fc.string(), { maxLength: 5 }), async (subject, scopes) => {
        const principal = expectRight(
          await authenticate({ authenticator: authenticatorAnswering(E.right({ subject, scopes })) })(token)(),
        )
        expect(principal).to.deep.equal({ subject, scopes })
      }),
      { numRuns: propertyRuns(50) },
    )
  })

  it('shows the authenticator the token it was given', async function () {
    const onlyThisToken: Authenticator = {
      verify: (presented) =>
        presented === token
          ? TE.right({ subject: 'owner', scopes: ['plants:write'] })
          : TE.left(unauthenticated('Invalid', 'not this one')),
    }
    const auth = authenticate({ authenticator: onlyThisToken })
    expect(expectRight(await auth(token)())).to.deep.equal({ subject: 'owner', scopes: ['plants:write'] })
    expectLeftTag(await auth(bearerToken('other'))(), 'Unauthenticated')
  })

  const refusals: ReadonlyArray<AuthError> = [
    unauthenticated('Missing', 'No access token was presented.'),
    unauthenticated('Invalid', 'The access token has expired.'),
    insufficientScope('plants:write'),
    authenticationUnavailable(new Error('key set unreachable')),
  ]
  for (const refusal of refusals) {
    it(`passes ${refusal._tag}${'reason' in refusal ? ` (${refusal.reason})` : ''} through unchanged`, async function () {
      const result = await authenticate({ authenticator: authenticatorAnswering(E.left(refusal)) })(token)()
      expect(result).to.deep.equal(E.left(refusal))
      expect(E.isLeft(result) && result.left).to.equal(refusal)
    })
  }

  it('is the only way to a Principal: createPlant compiles with a minted one, not with a plain object', function () {
    this.timeout(120_000) // a type check of the core on a busy machine
    const errors = typeErrorsOf('test/unit/core/__principal_probe__.ts', [
      "import { authenticate, createPlant, type Authenticator, type BearerToken, type PlantStore } from '../../../core/index.js'",
      'declare const authenticator: Authenticator',
      'declare const plantStore: PlantStore',
      'declare const token: BearerToken',
      'export const probe = async () => {',
      '  const vouched = await authenticate({ authenticator })(token)()',
      "  if (vouched._tag === 'Left') return undefined",
      "  const minted = createPlant({ plantStore })(vouched.right, { id: 1n, name: 'x' })",
      "  const forged = createPlant({ plantStore })({ subject: 'x', scopes: [] }, { id: 1n, name: 'x' })",
      '  return [minted, forged]',
      '}',
    ])
    expect(errors).to.have.lengthOf(1)
    expect(errors[0]).to.include({ line: 9, code: 2345 })
    expect(errors[0]?.message).to.match(/not assignable to parameter of type 'Principal'/)
  })

  it('lets createPlant create a plant for a minted Principal', async function () {
    const create = createPlant({ plantStore: makeInMemoryPlantStore() })
    const principal = await principalFor({ subject: 'x', scopes: [] })
    expect(expectRight(await create(principal, { id: 1n, name: 'x' })())).to.deep.equal({ name: 'x' })
  })
})
