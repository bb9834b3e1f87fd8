import { randomUUID } from 'node:crypto'
import { STATUS_CODES, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { toErrorResponse } from '../errors/error-response.js'
import { headersTooLarge, malformedRequest, requestTimeout, unknownMethod, type RequestProblem } from '../errors/problems.js'
import type { SocketFacts } from './socket-facts.js'

/**
 * The server's 'clientError' listener: answers a request Node's HTTP parser refused before the
 * app saw it (bad request line, no Host, headers too large, too slow), with an Error document like
 * every other answer, then closes the connection. `factsOf` names what the server knows of the
 * connection: the answers it still owes, and whether it answered already. Whatever goes wrong in
 * answering closes the connection: a listener that threw here would end the process, at the will
 * of anyone who can send bytes.
 */
/** What Node's parser hands the 'clientError' listener: its code, and the bytes it could not parse. */
type ParserError = Error & { code?: string; rawPacket?: unknown; bytesParsed?: unknown }

export const answerClientErrors =
  (factsOf: (socket: Duplex) => SocketFacts | undefined) =>
  (error: ParserError, socket: Duplex): void => {
    try {
      answerClientError(error, socket, factsOf(socket))
    } catch {
      socket.destroy()
    }
  }

const answerClientError = (error: ParserError, socket: Duplex, facts: SocketFacts | undefined): void => {
  const inFlight = facts?.owed[0]
  const response = inFlight?.response
  // Bytes after a request that asked to close the connection: its answer, if still owed, goes
  // out and Node closes the connection after it; nothing may follow that answer.
  if (error.code === 'HPE_CLOSED_CONNECTION') {
    if (response === undefined || response.writableFinished) socket.destroy()
    return
  }
  const problem = problemOf(error)
  if (problem === undefined) {
    socket.destroy()
    return
  }
  // Bytes that do not parse after a request the app is still answering (pipelined, or trailing
  // the request on the same write): that request's answer goes out first, whole, then this one.
  // Answered at once, the refusal would take the socket from under an answer whose work (a
  // stored plant) is done. A failure of the request in flight itself (its body cut, too slow) is
  // answered at once, with that request's id, unless its answer has begun: bytes on the wire
  // cannot be followed by others. Otherwise the refused request's headers were not read, and its
  // id is a fresh one.
  if (response === undefined || response.writableFinished || !response.req.complete) {
    if (response?.headersSent === true && !response.writableFinished) socket.destroy()
    else answerOnSocket(socket, problem, inFlight !== undefined && !inFlight.response.writableFinished ? inFlight.requestId : randomUUID(), facts)
    return
  }
  const answerAfter = (): void => {
    response.off('finish', answerAfter)
    response.off('close', answerAfter)
    answerOnSocket(socket, problem, randomUUID(), facts)
  }
  response.once('finish', answerAfter)
  response.once('close', answerAfter)
}

/**
 * Writes the Error document of a problem straight on a socket, with `Connection: close`, and ends
 * it; the connection's record keeps the problem, for the app reading the request it cut.
 */
export const answerOnSocket = (socket: Duplex, problem: RequestProblem, requestId: string, facts: SocketFacts | undefined): void => {
  // Node takes its own error listener off a socket it hands over (a CONNECT's): a reset from the
  // client would then be an unheard 'error', and an unheard error ends the process.
  socket.on('error', () => socket.destroy())
  // The client's end of a connection answered already (408, say) reaches Node as one more parse
  // error; the first answer stands.
  if (facts?.answered !== undefined || !socket.writable) {
    socket.destroy()
    return
  }
  if (facts !== undefined) facts.answered = problem
  const { status, wireHeaders, text } = toErrorResponse(problem)
  const lines = Object.entries({ ...wireHeaders, 'X-Request-Id': requestId, Connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`)
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('')}\r\n${text}`)
}

/**
 * Answers a request with the Error document of a problem, through its response, for a listener
 * that has no app of its own to do it (an `Expect` no server can meet, on the metrics listener).
 * The request's id is on the response already, stamped when the server admitted it.
 */
export const answerOnResponse = (res: ServerResponse, problem: RequestProblem): void => {
  const { status, wireHeaders, text } = toErrorResponse(problem)
  res.writeHead(status, wireHeaders).end(text)
}

// A reset or a closed socket has no one left to answer.
const problemOf = ({ code, rawPacket, bytesParsed }: ParserError): RequestProblem | undefined => {
  if (code === 'ECONNRESET' || code === 'EPIPE') return undefined
  if (code === 'HPE_HEADER_OVERFLOW') return headersTooLarge
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return requestTimeout
  if (code === 'HPE_INVALID_METHOD' && isRequestLine(rawPacket, bytesParsed)) return unknownMethod
  return malformedRequest
}

// Node's parser calls any first word it does not know an invalid method, bytes that are no
// request at all included: only a request line of HTTP's form names a method the server lacks.
// The packet is what the socket read, requests before the refused one included; the refused line
// is the one holding the byte the parser stopped at, and at most 8 KiB of it is looked at.
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [!-~]+ HTTP\/1\.[01]\r?\n/
const LONGEST_LINE_LOOKED_AT = 8 * 1024

const isRequestLine = (packet: unknown, stoppedAt: unknown): boolean => {
  if (!Buffer.isBuffer(packet) || typeof stoppedAt !== 'number') return false
  const start = packet.lastIndexOf(0x0a, stoppedAt - 1) + 1
  return REQUEST_LINE.test(packet.subarray(start, start + LONGEST_LINE_LOOKED_AT).toString('latin1'))
}
