import { randomUUID } from 'node:crypto'
import type { Duplex } from 'node:stream'
import { toErrorResponse } from './error-response.js'
import { headersTooLarge, malformedRequest, requestTimeout, type RequestProblem } from './request-problems.js'

/**
 * Answers a request Node's HTTP parser refused before the app saw it (bad request line, no Host,
 * headers too large, too slow), with an Error document like every other answer, then closes the
 * connection. Install it as the server's 'clientError' listener.
 */
export const answerClientError = (error: Error & { code?: string }, socket: Duplex): void => {
  const problem = problemOf(error.code)
  if (problem === undefined || !socket.writable) {
    socket.destroy()
    return
  }
  const { status, body } = toErrorResponse(problem)
  const json = JSON.stringify(body)
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      // The request's own headers were not read, so its id is always a fresh one.
      `X-Request-Id: ${randomUUID()}\r\n` +
      `Content-Length: ${Buffer.byteLength(json)}\r\n` +
      'Connection: close\r\n\r\n' +
      json,
  )
}

// A reset or a closed socket has no one left to answer.
const problemOf = (code: string | undefined): RequestProblem | undefined => {
  if (code === 'ECONNRESET' || code === 'EPIPE') return undefined
  if (code === 'HPE_HEADER_OVERFLOW') return headersTooLarge
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return requestTimeout
  return malformedRequest
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
}
