import type { HttpContext } from './request-state.js'
import { malformedRequest, type RequestProblem } from '../errors/problems.js'

/**
 * Refuses an HTTP/1.1 request without a Host header, and any request with more than one, as RFC
 * 9112 section 3.2 requires (Node keeps the first of several silently).
 */
export const hostProblem = (req: HttpContext['req']): RequestProblem | undefined =>
  hostHeaders(req.rawHeaders) > 1 || (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && !req.headers.host)
    ? malformedRequest
    : undefined

// Counted without building a list.
const hostHeaders = (rawHeaders: ReadonlyArray<string>): number => {
  let count = 0
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]
    if (name !== undefined && name.length === 4 && name.toLowerCase() === 'host') count += 1
  }
  return count
}
