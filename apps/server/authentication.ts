import { randomBytes } from 'node:crypto'
import type { Logger } from '../../adapters/http/logger.js'
import { makeStaticTokenAuthenticator } from '../../adapters/static-tokens/authenticator.js'
import type { Authenticator } from '../../core/index.js'
import type { ServiceConfig } from './config.js'

/**
 * The authenticator configuration asks for. With no token configured the service never runs
 * open: it makes a random development token and prints it once, on stderr, for the person who
 * started it.
 */
export const openAuthenticator = (config: ServiceConfig, log: Logger): Authenticator => {
  if (config.tokens !== undefined) return makeStaticTokenAuthenticator(config.tokens)
  const token = randomBytes(32).toString('base64url')
  log.warn('no PLANT_STORE_TOKENS configured: accepting one generated development token, printed on stderr')
  process.stderr.write(
    `\nDevelopment token (valid until this process stops; set PLANT_STORE_TOKENS for real use):\n  ${token}\n\n`,
  )
  return makeStaticTokenAuthenticator([token])
}
