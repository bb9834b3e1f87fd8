import { randomBytes } from 'node:crypto'
import * as RA from 'fp-ts/lib/ReadonlyArray.js'
import { makeJwtAuthenticator, type KeySetObserver } from '../../adapters/jwt/index.js'
import { makeStaticTokenAuthenticator } from '../../adapters/static-tokens/index.js'
import { firstAccepting, type Authenticator, type Clock, type Logger } from '../../core/index.js'
import type { ServiceConfig } from './config.js'

/**
 * The authenticator configuration asks for: static tokens, JWTs, or both (a request may use
 * either). With neither configured the service never runs open: it makes a random development
 * token and prints it once, on stderr, for the person who started it.
 */
export const openAuthenticator = (config: ServiceConfig, log: Logger, keySetObserver: KeySetObserver | undefined, clock: Clock): Authenticator => {
  // Static tokens first: a cheap exact comparison, and a static token never reaches the JWKS.
  const configured = [
    ...(config.tokens === undefined ? [] : [makeStaticTokenAuthenticator(config.tokens)]),
    ...(config.jwt === undefined ? [] : [makeJwtAuthenticator({ ...config.jwt, clock }, keySetObserver)]),
  ]
  if (RA.isNonEmpty(configured)) return firstAccepting(configured)
  const token = randomBytes(32).toString('base64url')
  log.warn('no PLANT_STORE_TOKENS or JWT_* configured: accepting one generated development token, printed on stderr')
  process.stderr.write(
    `\nDevelopment token (valid until this process stops; set PLANT_STORE_TOKENS for real use):\n  ${token}\n\n`,
  )
  return makeStaticTokenAuthenticator([token])
}
