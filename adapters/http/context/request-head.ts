import type { IncomingMessage } from 'node:http'
import { isIPv6 } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import { BearerToken, unauthenticated, type Unauthenticated } from '../../../core/index.js'
import { expectationFailed, malformedRequest, unknownTransferCoding, type RequestProblem } from '../errors/problems.js'
import { soleListMember } from './list-members.js'

/**
 * A request's head as the service reads it: once, as the request is admitted, and then passed
 * along; every field the service reads is here, and read nowhere else. The fields are as Node
 * parsed them: several lines of a list field joined with commas, and the first of several lines
 * of a field it does not join (Host, Authorization, Content-Type) kept silently; the counts here
 * are the lines it kept quiet about, counted in one pass over the raw headers.
 */
export interface RequestHead {
  /** Why the request cannot be read as its sender meant it (its request line, its Host, its `Expect`); undefined when it can. */
  readonly refusal: RequestProblem | undefined
  /** How many Authorization field lines the request has. */
  readonly authorizationLines: number
  /** How many Content-Type field lines the request has. */
  readonly contentTypeLines: number
  /** The first Authorization line: the credential. */
  readonly authorization: string | undefined
  /** The first Content-Type line: what the body says it is. */
  readonly contentType: string | undefined
  /** `Content-Encoding`: the codings the body was sent in. */
  readonly contentEncoding: string | undefined
  /** `Content-Length`: how many bytes the body says it has. */
  readonly contentLength: string | undefined
  /** `Transfer-Encoding`: how the body is framed, when it is not by its length. */
  readonly transferEncoding: string | undefined
  /** `Accept-Encoding`: the codings the client takes an answer in. */
  readonly acceptEncoding: string | undefined
  /** `If-None-Match`: the entity tags of what the client holds already. */
  readonly ifNoneMatch: string | undefined
  /** `X-Request-Id`: the id the client or a proxy chose for the request, not yet checked. */
  readonly sentRequestId: string | undefined
  /**
   * `traceparent` (W3C Trace Context), not yet checked: the trace id of the log line of a request
   * no span records. A tracer reads the trace context through its own propagator.
   */
  readonly traceParent: string | undefined
  /** `Origin` and `Access-Control-Request-Method`: the page a browser sends the request for (CORS), and what its preflight asks. */
  readonly origin: string | undefined
  readonly accessControlRequestMethod: string | undefined
}

/** Reads a request's head: the counts in one pass, the fields, then the checks every request passes before its route. */
export const readRequestHead = (req: IncomingMessage): RequestHead => {
  const { rawHeaders } = req
  let hostLines = 0
  let authorizationLines = 0
  let contentTypeLines = 0
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const field = rawHeaders[index] as string
    // Only the lengths of the three names are lowered and compared: most fields are none of them.
    if (field.length === HOST.length) {
      if (field.toLowerCase() === HOST) hostLines += 1
    } else if (field.length === AUTHORIZATION.length) {
      if (field.toLowerCase() === AUTHORIZATION) authorizationLines += 1
    } else if (field.length === CONTENT_TYPE.length && field.toLowerCase() === CONTENT_TYPE) contentTypeLines += 1
  }
  const { headers } = req
  const transferEncoding = headers['transfer-encoding']
  return {
    refusal: requestLineProblem(req) ?? hostProblem(req, headers.host, hostLines) ?? transferCodingProblem(transferEncoding) ?? expectationProblem(headers.expect),
    authorizationLines,
    contentTypeLines,
    authorization: headers.authorization,
    contentType: headers['content-type'],
    contentEncoding: headers['content-encoding'],
    contentLength: headers['content-length'],
    transferEncoding,
    acceptEncoding: headers['accept-encoding'],
    ifNoneMatch: headers['if-none-match'],
    // Node gives a field as a list only for Set-Cookie; these are strings or absent.
    sentRequestId: headers['x-request-id'] as string | undefined,
    traceParent: headers.traceparent as string | undefined,
    origin: headers.origin,
    accessControlRequestMethod: headers['access-control-request-method'],
  }
}

const HOST = 'host'
const AUTHORIZATION = 'authorization'
const CONTENT_TYPE = 'content-type'

/**
 * Refuses what Node's parser lets through in a request line that HTTP/1.1 has no place for: a
 * version other than HTTP/1.0 or 1.1 (`HTTP/2.0`, `HTTP/0.9`: HTTP/2 never comes as text, and
 * HTTP/0.9 had neither a version nor headers), and a target with a fragment (`/plants#x`: a
 * fragment never leaves the client, RFC 9112 section 3.2), so the request is not one this server
 * can read as its sender meant it.
 */
const requestLineProblem = (req: IncomingMessage): RequestProblem | undefined =>
  req.httpVersionMajor === 1 && !(req.url ?? '').includes('#') ? undefined : malformedRequest

/**
 * Refuses an HTTP/1.1 request without a Host header, any request with more than one, and one
 * whose Host is not a host and an optional port (`a b`, `user@host`, `[zz]`, `host:99999`), as
 * RFC 9112 section 3.2 requires.
 */
const hostProblem = (req: IncomingMessage, host: string | undefined, hostLines: number): RequestProblem | undefined =>
  hostLines > 1 || (host === undefined ? req.httpVersionMinor >= 1 : !isHostAndPort(host)) ? malformedRequest : undefined

/**
 * Refuses a request whose `Transfer-Encoding` the server cannot read, as RFC 9112 section 6
 * says: 400 when `chunked` is not the last coding (the body's end cannot be found), 501 when a
 * coding before it is one the server does not decode (`gzip, chunked`). Node's parser reads the
 * chunks and hands the body on still coded, which would be read as JSON and refused for the
 * wrong reason.
 */
const transferCodingProblem = (field: string | undefined): RequestProblem | undefined => {
  if (field === undefined) return undefined
  const codings = field.split(',').map((coding) => coding.trim().toLowerCase())
  if (codings.at(-1) !== 'chunked') return malformedRequest
  return codings.length === 1 ? undefined : unknownTransferCoding
}

/**
 * Refuses a request whose `Expect` header asks for anything but `100-continue` (RFC 9110 section
 * 10.1.1): 417, without reading its body.
 */
const expectationProblem = (expectation: string | undefined): RequestProblem | undefined => {
  if (expectation === undefined) return undefined
  const sole = soleListMember(expectation)
  return sole === '' || sole?.toLowerCase() === '100-continue' ? undefined : expectationFailed
}

// The longest Host that can be one: a name of 255 characters, a colon and five digits. Checked
// first, so a field as long as the header limit lets it be is refused without being read.
const MAX_HOST_AND_PORT_LENGTH = 255 + 1 + 5
const MAX_NAME_LENGTH = 255
const MAX_LABEL_LENGTH = 63
const MAX_PORT = 65_535

// RFC 3986's host, then an optional port: an IPv6 address in brackets, or a registered name or
// IPv4 address (percent escapes left as they are); empty is allowed (RFC 9112 section 3.2).
const HOST_AND_PORT = /^(?:\[([0-9A-Fa-f:.]+)\]|([0-9A-Za-z._~!$&'()*+,;=%-]*))(?::([0-9]*))?$/

/**
 * Whether a Host field is a host and an optional port that could name something (RFC 9112
 * section 3.2, RFC 3986 section 3.2.2): in brackets, an IPv6 address (`[::1]`, not `[zz]`; no
 * zone, which a browser never sends, and no IPvFuture, which nothing uses); otherwise a name of
 * at most 255 characters in labels of at most 63, as DNS has them; a port of at most five digits,
 * 65535 at most. A name or a port past these bounds names no server this one could be.
 */
export const isHostAndPort = (field: string): boolean => {
  if (field.length > MAX_HOST_AND_PORT_LENGTH) return false
  const match = HOST_AND_PORT.exec(field)
  if (match === null) return false
  const [, address, name, port] = match
  return (
    (address === undefined || isIPv6(address)) &&
    (name === undefined || isName(name)) &&
    (port === undefined || (port.length <= 5 && Number(port) <= MAX_PORT))
  )
}

const isName = (name: string): boolean => {
  if (name.length > MAX_NAME_LENGTH) return false
  let start = 0
  for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', start)) {
    if (dot - start > MAX_LABEL_LENGTH) return false
    start = dot + 1
  }
  return name.length - start <= MAX_LABEL_LENGTH
}

/**
 * Reads the bearer token of a request from its head. A request with more than one Authorization
 * field line is refused: the field holds one credential (RFC 9110 section 5.3), Node would keep
 * the first silently, and a proxy in front that reads another would let one credential through
 * while this service acts on a different one.
 */
export const bearerTokenOf = ({ authorizationLines, authorization }: Pick<RequestHead, 'authorizationLines' | 'authorization'>): E.Either<Unauthenticated, BearerToken> =>
  authorizationLines > 1 ? E.left(severalCredentials) : bearerTokenFrom(authorization)

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
