import { makeJwtAuthenticator, type KeySource } from '../../../../adapters/jwt/index.js'
import { authenticatorContract } from '../../../contract/authenticator.contract.js'
import { startJwksServer } from '../../../support/jwt/jwks-server.js'
import { AUDIENCE, inSeconds, ISSUER, issueToken, makeSigningKey, SUBJECT, withPayload, withTamperedSignature } from '../../../support/jwt/tokens.js'

authenticatorContract('JWT, keys from a JWKS URL', async () => {
  const [key, stranger] = await Promise.all([makeSigningKey('ES256', 'contract-1'), makeSigningKey('ES256', 'contract-1')])
  const jwks = await startJwksServer([key.jwk])
  const keys: KeySource = { _tag: 'Jwks', url: jwks.url, algorithms: ['ES256'] }
  const token = await issueToken(key)
  return {
    authenticator: makeJwtAuthenticator({ keys, issuer: ISSUER, audience: AUDIENCE, clockToleranceSeconds: 30 }),
    known: [
      { token, identity: { subject: SUBJECT, scopes: ['plants:read', 'plants:write'] } },
      { token: await issueToken(key, { sub: 'robot-7', scope: undefined, scp: ['plants:write'] }), identity: { subject: 'robot-7', scopes: ['plants:write'] } },
    ],
    unknown: [
      await issueToken(stranger),
      await issueToken(stranger, {}, { kid: 'a-key-nobody-publishes' }),
      withTamperedSignature(token),
      withPayload(token, { iss: ISSUER, aud: AUDIENCE, sub: 'admin', exp: inSeconds(300) }),
      await issueToken(key, { exp: inSeconds(-3600) }),
      await issueToken(key, { aud: 'https://another-api.example.test' }),
      await issueToken(key, { sub: '' }),
      await issueToken(key, { sub: undefined }),
      'not-a-jwt-but-a-static-token-0123456789',
    ],
    release: () => jwks.stop(),
  }
})
