import type { HttpContext } from './request-state.js'
import { expectationFailed, type RequestProblem } from '../errors/problems.js'

/**
 * Refuses a request whose `Expect` header asks for anything but `100-continue` (RFC 9110 section
 * 10.1.1): 417, without reading its body.
 */
export const expectationProblem = (req: HttpContext['req']): RequestProblem | undefined => {
  const expectation = req.headers.expect
  return expectation === undefined || expectation === '' || expectation.trim().toLowerCase() === '100-continue'
    ? undefined
    : expectationFailed
}
