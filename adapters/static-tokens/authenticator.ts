import { timingSafeEqual } from 'node:crypto'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { unauthenticated, type Authenticator, type BearerToken, type Identity } from '../../core/index.js'

/**
 * Accepts exactly the configured tokens. Every candidate is compared, in constant time, against
 * every configured token, so neither the match position nor a common prefix shows in the timing.
 * The subject names the token by its position in the configuration, never by its value.
 *
 * @example
 * ```ts
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 *
 * const authenticator = makeStaticTokenAuthenticator(['s3cret-token', 'next-s3cret-token'])
 * ```
 */
export const makeStaticTokenAuthenticator = (tokens: ReadonlyArray<string>): Authenticator => {
  const width = Math.max(1, ...tokens.map((token) => Buffer.byteLength(token, 'utf8')))
  const known = tokens.map((token, index) => ({
    padded: padded(token, width),
    length: Buffer.byteLength(token, 'utf8'),
    // The answer for this token, built once (a TaskEither is a recipe, run anew by each caller)
    // and frozen, since every caller shares it.
    acceptance: TE.right<never, Identity>(Object.freeze({ subject: `static-token-${index + 1}`, scopes: Object.freeze([]) })),
  }))
  const candidate = Buffer.alloc(width)
  const refusal = TE.left(unauthenticated('Invalid', 'The access token is not recognised.'))
  return {
    verify: (token: BearerToken) => {
      candidate.fill(0)
      candidate.write(token, 'utf8')
      const length = Buffer.byteLength(token, 'utf8')
      let match: (typeof known)[number] | undefined
      for (let index = 0; index < known.length; index++) {
        const entry = known[index] as (typeof known)[number]
        if (timingSafeEqual(entry.padded, candidate) && entry.length === length && match === undefined) match = entry
      }
      return match === undefined ? refusal : match.acceptance
    },
  }
}

const padded = (token: string, width: number): Buffer => {
  const bytes = Buffer.alloc(width)
  bytes.write(token, 'utf8')
  return bytes
}
