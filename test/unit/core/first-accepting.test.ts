import { expect } from 'chai'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  authenticationUnavailable,
  BearerToken,
  firstAccepting,
  insufficientScope,
  unauthenticated,
  type AuthError,
  type Authenticator,
  type Identity,
} from '../../../core/index.js'
import { expectLeftTag, expectRight } from '../../support/either.js'

const token = 'a-token' as BearerToken

const accepting = (subject: string): Authenticator => ({
  verify: () => TE.right<AuthError, Identity>({ subject, scopes: ['plants:write'] }),
})
const refusing = (detail: string): Authenticator => ({ verify: () => TE.left(unauthenticated('Invalid', detail)) })
const unavailable: Authenticator = { verify: () => TE.left(authenticationUnavailable(new Error('JWKS down'))) }
const lackingScope: Authenticator = { verify: () => TE.left(insufficientScope('plants:write')) }

describe('firstAccepting', () => {
  it('answers the identity of the first authenticator that accepts the token', async () => {
    const identity = expectRight(await firstAccepting([accepting('first'), accepting('second')]).verify(token)())
    expect(identity).to.deep.equal({ subject: 'first', scopes: ['plants:write'] })
  })

  it('passes a refused token on to the next authenticator', async () => {
    const identity = expectRight(await firstAccepting([refusing('unknown static token'), accepting('jwt-user')]).verify(token)())
    expect(identity.subject).to.equal('jwt-user')
  })

  it('answers the last refusal when every authenticator refuses', async () => {
    const error = expectLeftTag(
      await firstAccepting([refusing('not a static token'), refusing('The access token has expired.')]).verify(token)(),
      'Unauthenticated',
    )
    expect(error.detail).to.equal('The access token has expired.')
  })

  it('stops at an unreachable authority: the token may have been valid, so it is a 503, not a 401', async () => {
    expectLeftTag(await firstAccepting([refusing('not a static token'), unavailable]).verify(token)(), 'AuthenticationUnavailable')
    expectLeftTag(await firstAccepting([unavailable, accepting('never asked')]).verify(token)(), 'AuthenticationUnavailable')
  })

  it('stops at a missing scope instead of trying the token elsewhere', async () => {
    const error = expectLeftTag(await firstAccepting([lackingScope, accepting('never asked')]).verify(token)(), 'InsufficientScope')
    expect(error.requiredScope).to.equal('plants:write')
  })

  it('does not ask later authenticators once one has accepted', async () => {
    const identity = expectRight(await firstAccepting([accepting('static-token-1'), unavailable]).verify(token)())
    expect(identity.subject).to.equal('static-token-1')
  })

  it('with a single authenticator, answers exactly what it answers', async () => {
    const error = expectLeftTag(await firstAccepting([refusing('nope')]).verify(token)(), 'Unauthenticated')
    expect(error).to.deep.equal(unauthenticated('Invalid', 'nope'))
  })
})
