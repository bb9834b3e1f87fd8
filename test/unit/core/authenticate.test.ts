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

  // A rule only the compiler checks, checked by `npm test`'s type check (tsc) rather than a compiler
  // started here: an @ts-expect-error with no error under it is an error, so this file stops
  // compiling the day a plain object is taken for a Principal.
  it('is the only way to a Principal: createPlant takes a minted one, not a plain object', async function () {
    const plantStore = makeInMemoryPlantStore()
    const vouched = expectRight(await authenticate({ authenticator: authenticatorAnswering(E.right({ subject: 'x', scopes: [] })) })(token)())
    expectRight(await createPlant({ plantStore })(vouched, { id: 1n, name: 'x' })())
    const forged = { subject: 'x', scopes: [] }
    // @ts-expect-error a plain object is not a Principal: only authenticate mints one
    const forgery = () => createPlant({ plantStore })(forged, { id: 2n, name: 'x' })
    expect(forgery).to.be.a('function')
  })

  it('lets createPlant create a plant for a minted Principal', async function () {
    const create = createPlant({ plantStore: makeInMemoryPlantStore() })
    const principal = await principalFor({ subject: 'x', scopes: [] })
    expect(expectRight(await create(principal, { id: 1n, name: 'x' })())).to.deep.equal({ name: 'x' })
  })
})
