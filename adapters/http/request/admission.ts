import type { HttpContext } from '../context/request-context.js'
import { expectationFailed, malformedRequest, type RequestProblem } from '../errors/problems.js'
import { fieldLines } from '../context/field-lines.js'
import { soleListMember } from '../context/list-members.js'
import { isHostAndPort } from './host-and-port.js'

/** The checks every request passes before its route: its request line, its Host header, then its `Expect`. */
export const admissionProblem = (req: HttpContext['req']): RequestProblem | undefined =>
  requestLineProblem(req) ?? hostProblem(req) ?? expectationProblem(req)

/**
 * Refuses what Node's parser lets through in a request line that HTTP/1.1 has no place for: a
 * version other than HTTP/1.0 or 1.1 (`HTTP/2.0`, `HTTP/0.9`: HTTP/2 never comes as text, and
 * HTTP/0.9 had neither a version nor headers), and a target with a fragment (`/plants#x`: a
 * fragment never leaves the client, RFC 9112 section 3.2), so the request is not one this server
 * can read as its sender meant it.
 */
const requestLineProblem = (req: HttpContext['req']): RequestProblem | undefined =>
  req.httpVersionMajor === 1 && !(req.url ?? '').includes('#') ? undefined : malformedRequest

/**
 * Refuses an HTTP/1.1 request without a Host header, any request with more than one (Node keeps
 * the first of several silently), and one whose Host is not a host and an optional port (`a b`,
 * `user@host`, `[zz]`, `host:99999`), as RFC 9112 section 3.2 requires.
 */
const hostProblem = (req: HttpContext['req']): RequestProblem | undefined => {
  const host = req.headers.host
  return fieldLines(req.rawHeaders, 'host') > 1 || (host === undefined ? req.httpVersionMinor >= 1 : !isHostAndPort(host))
    ? malformedRequest
    : undefined
}

/**
 * Refuses a request whose `Expect` header asks for anything but `100-continue` (RFC 9110 section
 * 10.1.1): 417, without reading its body.
 */
const expectationProblem = (req: HttpContext['req']): RequestProblem | undefined => {
  const expectation = req.headers.expect
  if (expectation === undefined) return undefined
  const sole = soleListMember(expectation)
  return sole === '' || sole?.toLowerCase() === '100-continue' ? undefined : expectationFailed
}
