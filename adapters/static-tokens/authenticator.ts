import { timingSafeEqual } from 'node:crypto'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { unauthenticated, type Authenticator, type BearerToken } from '../../core/index.js'

/**
 * Accepts exactly the configured tokens. Every candidate is compared, in constant time, against
 * every configured token, so neither the match position nor a common prefix shows in the timing.
 * The subject names the token by its position in the configuration, never by its value.
 */
export const makeStaticTokenAuthenticator = (tokens: ReadonlyArray<string>): Authenticator => {
  // Every token, and the candidate, is laid into a buffer of one fixed width (the longest token's
  // bytes) padded with zeros, so timingSafeEqual always compares equal lengths over the same
  // bytes whatever was sent; the byte lengths, compared apart, tell "abc" from "abc\0". This costs
  // one copy per request where a sha256 digest of the candidate cost a hash.
  const width = Math.max(1, ...tokens.map((token) => Buffer.byteLength(token, 'utf8')))
  const known = tokens.map((token) => ({ padded: padded(token, width), length: Buffer.byteLength(token, 'utf8') }))
  const candidate = Buffer.alloc(width)
  const refusal = TE.left(unauthenticated('Invalid', 'The access token is not recognised.'))
  return {
    verify: (token: BearerToken) => {
      candidate.fill(0)
      // Writes at most `width` bytes: a longer candidate is cut, and its length refuses it.
      candidate.write(token, 'utf8')
      const length = Buffer.byteLength(token, 'utf8')
      let match = -1
      for (const [index, { padded: bytes, length: knownLength }] of known.entries()) {
        if (timingSafeEqual(bytes, candidate) && knownLength === length && match === -1) match = index
      }
      return match === -1 ? refusal : TE.right({ subject: `static-token-${match + 1}`, scopes: [] })
    },
  }
}

const padded = (token: string, width: number): Buffer => {
  const bytes = Buffer.alloc(width)
  bytes.write(token, 'utf8')
  return bytes
}
