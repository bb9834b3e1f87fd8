// A consumer of the JWT adapter, type-checked and run by test/e2e/package-install.test.ts: a
// token signed with jose (the consumer's own dependency) and verified by the adapter.
import * as E from 'fp-ts/lib/Either.js'
import { SignJWT } from 'jose'
import { makeJwtAuthenticator } from 'plant-store/adapters/jwt'
import { BearerToken, authenticate } from 'plant-store/core'

const secret = new TextEncoder().encode('a-shared-secret-of-at-least-32-bytes!!')
const authenticator = makeJwtAuthenticator({
  keys: { _tag: 'Secret', secret, algorithms: ['HS256'] },
  issuer: 'https://issuer.example.com',
  audience: 'plant-store',
  clockToleranceSeconds: 30,
})

const jwt = await new SignJWT({ scope: 'plants:write' })
  .setProtectedHeader({ alg: 'HS256' })
  .setIssuer('https://issuer.example.com')
  .setAudience('plant-store')
  .setSubject('gardener')
  .setExpirationTime('5m')
  .sign(secret)

const token = BearerToken.decode(jwt)
if (E.isLeft(token)) throw new Error('not a bearer token')
const principal = await authenticate({ authenticator })(token.right)()
console.log(E.isRight(principal) ? `verified ${principal.right.subject}` : principal.left._tag)
