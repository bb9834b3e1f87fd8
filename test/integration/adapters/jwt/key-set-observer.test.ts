import { expect } from 'chai'
import { makeJwtAuthenticator, type KeySetObserver } from '../../../../adapters/jwt/index.js'
import { BearerToken } from '../../../../core/index.js'
import { expectRight } from '../../../support/either.js'
import { startJwksServer, type JwksServer } from '../../../support/jwt/jwks-server.js'
import { AUDIENCE, ISSUER, issueToken, makeSigningKey } from '../../../support/jwt/tokens.js'
import { virtualClock } from '../../../support/virtual-clock.js'

describe('the JWT adapter reports each key-set fetch to its observer', function () {
  let jwks: JwksServer | undefined
  afterEach(async () => {
    await jwks?.stop()
    jwks = undefined
  })

  it('a fetch that answers the set is ok; one that answers 500 is failed; a skipped fetch is not reported', async function () {
    const key = await makeSigningKey('RS256', 'key-1')
    const server = await startJwksServer([key.jwk])
    jwks = server
    const fetches: Array<{ outcome: string; seconds: number }> = []
    const observer: KeySetObserver = { keySetFetched: (outcome, seconds) => fetches.push({ outcome, seconds }) }
    const verify = async (authenticator: ReturnType<typeof makeJwtAuthenticator>) =>
      authenticator.verify(expectRight(BearerToken.decode(await issueToken(key))))()
    // On a clock that does not move, the second verify below is inside the back-off however slow the first.
    const { clock } = virtualClock(Date.now())
    const options = (cooldownMs: number) => ({
      keys: { _tag: 'Jwks' as const, url: server.url, algorithms: ['RS256' as const] as const, cooldownMs },
      issuer: ISSUER,
      audience: AUDIENCE,
      clockToleranceSeconds: 30,
      clock,
    })

    await verify(makeJwtAuthenticator(options(30_000), observer))
    expect(fetches.map((f) => f.outcome)).to.deep.equal(['ok'])

    server.behave('fail')
    const failing = makeJwtAuthenticator(options(30_000), observer)
    await verify(failing)
    await verify(failing) // inside the back-off after the failure: no fetch is made
    expect(fetches.map((f) => f.outcome)).to.deep.equal(['ok', 'failed'])
    for (const { seconds } of fetches) expect(seconds).to.be.a('number').at.least(0)
  })

  it('an observer that throws loses its report, never the token\'s verdict', async function () {
    const key = await makeSigningKey('RS256', 'key-1')
    const server = await startJwksServer([key.jwk])
    jwks = server
    const authenticator = makeJwtAuthenticator(
      { keys: { _tag: 'Jwks', url: server.url, algorithms: ['RS256'] }, issuer: ISSUER, audience: AUDIENCE, clockToleranceSeconds: 30 },
      {
        keySetFetched: () => {
          throw new Error('the metrics registry is gone')
        },
      },
    )
    const verdict = await authenticator.verify(expectRight(BearerToken.decode(await issueToken(key))))()
    expect(verdict._tag, 'the token, verified with the keys fetched').to.equal('Right')
  })

  it('a key set holding more keys than allowed is a failed fetch', async function () {
    const key = await makeSigningKey('RS256', 'key-1')
    const server = await startJwksServer([key.jwk, { ...key.jwk, kid: 'key-2' }])
    jwks = server
    const outcomes: string[] = []
    const authenticator = makeJwtAuthenticator(
      {
        keys: { _tag: 'Jwks', url: server.url, algorithms: ['RS256'], maxKeys: 1 },
        issuer: ISSUER,
        audience: AUDIENCE,
        clockToleranceSeconds: 30,
      },
      { keySetFetched: (outcome) => outcomes.push(outcome) },
    )
    const verdict = await authenticator.verify(expectRight(BearerToken.decode(await issueToken(key))))()
    expect(verdict._tag === 'Left' && verdict.left._tag).to.equal('AuthenticationUnavailable')
    expect(outcomes).to.deep.equal(['failed'])
  })
})
