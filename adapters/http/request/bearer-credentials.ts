import type { IncomingMessage } from 'node:http'
import * as E from 'fp-ts/lib/Either.js'
import { BearerToken, unauthenticated, type Unauthenticated } from '../../../core/index.js'
import { fieldLines } from '../context/field-lines.js'

/**
 * Reads the bearer token of a request. A request with more than one Authorization field line is
 * refused: the field holds one credential (RFC 9110 section 5.3), Node would keep the first
 * silently, and a proxy in front that reads another would let one credential through while this
 * service acts on a different one.
 */
export const bearerTokenOf = (req: Pick<IncomingMessage, 'headers' | 'rawHeaders'>): E.Either<Unauthenticated, BearerToken> =>
  fieldLines(req.rawHeaders, 'authorization') > 1 ? E.left(severalCredentials) : bearerTokenFrom(req.headers.authorization)

const severalCredentials = unauthenticated('Invalid', 'Send one Authorization header; this request has several.')

/**
 * Reads the bearer token out of an Authorization header value (RFC 6750 section 2.1). The scheme
 * name is case-insensitive (RFC 7235 section 2.1); the token is taken exactly as sent.
 */
export const bearerTokenFrom = (authorization: string | undefined): E.Either<Unauthenticated, BearerToken> => {
  if (authorization === undefined || authorization === '') {
    return E.left(unauthenticated('Missing', 'Send an access token as "Authorization: Bearer <token>".'))
  }
  // The header nearly every client sends, `Bearer <token>` with one space, is split without a
  // regular expression; any other spelling is read by the general rule below.
  if (authorization.startsWith(PLAIN_PREFIX) && authorization.charCodeAt(PLAIN_PREFIX.length) !== SPACE) {
    return tokenOf(authorization.slice(PLAIN_PREFIX.length))
  }
  const match = /^([^\s]+)(?:[ ]+(.*))?$/.exec(authorization)
  const scheme = match?.[1]
  const token = match?.[2] ?? ''
  if (scheme?.toLowerCase() !== 'bearer') {
    return E.left(unauthenticated('Invalid', 'The Authorization header must use the Bearer scheme.'))
  }
  return tokenOf(token)
}

const PLAIN_PREFIX = 'Bearer '
const SPACE = 0x20

const tokenOf = (token: string): E.Either<Unauthenticated, BearerToken> =>
  BearerToken.is(token)
    ? E.right(token)
    : E.left(unauthenticated('Invalid', 'The bearer token is empty or not in the token68 syntax of RFC 6750.'))
