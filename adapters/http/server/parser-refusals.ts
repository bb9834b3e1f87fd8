import { randomUUID } from 'node:crypto'
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { toErrorResponse } from '../errors/error-response.js'
import { requestIdFrom } from '../request/request-id.js'
import { headersTooLarge, malformedRequest, requestTimeout, type RequestProblem } from '../errors/problems.js'

/**
 * The server's 'clientError' listener: answers a request Node's HTTP parser refused before the
 * app saw it (bad request line, no Host, headers too large, too slow), with an Error document like
 * every other answer, then closes the connection. `oldestOwed` names the answer the connection
 * still owes, if any. Whatever goes wrong in answering closes the connection: a listener that
 * threw here would end the process, at the will of anyone who can send bytes.
 */
export const answerClientErrors =
  (oldestOwed: (socket: Duplex) => ServerResponse | undefined) =>
  (error: Error & { code?: string }, socket: Duplex): void => {
    try {
      answerClientError(error, socket, oldestOwed(socket))
    } catch {
      socket.destroy()
    }
  }

const answerClientError = (error: Error & { code?: string }, socket: Duplex, inFlight: ServerResponse | undefined): void => {
  // Bytes after a request that asked to close the connection: its answer, if still owed, goes
  // out and Node closes the connection after it; nothing may follow that answer.
  if (error.code === 'HPE_CLOSED_CONNECTION') {
    if (inFlight === undefined || inFlight.writableFinished) socket.destroy()
    return
  }
  const problem = problemOf(error.code)
  if (problem === undefined) {
    socket.destroy()
    return
  }
  // Bytes that do not parse after a request the app is still answering (pipelined, or trailing
  // the request on the same write): that request's answer goes out first, whole, then this one.
  // Answered at once, the refusal would take the socket from under an answer whose work (a
  // stored plant) is done. A failure of the request in flight itself (its body cut, too slow) is
  // answered at once, unless its answer has begun: bytes on the wire cannot be followed by others.
  if (inFlight === undefined || inFlight.writableFinished || !inFlight.req.complete) {
    if (inFlight?.headersSent === true && !inFlight.writableFinished) socket.destroy()
    else answerOnSocket(socket, problem)
    return
  }
  const answerAfter = (): void => {
    inFlight.off('finish', answerAfter)
    inFlight.off('close', answerAfter)
    answerOnSocket(socket, problem)
  }
  inFlight.once('finish', answerAfter)
  inFlight.once('close', answerAfter)
}

/** Writes the Error document of a problem straight on a socket, with `Connection: close`, and ends it. */
export const answerOnSocket = (socket: Duplex, problem: RequestProblem): void => {
  // Node takes its own error listener off a socket it hands over (a CONNECT's): a reset from the
  // client would then be an unheard 'error', and an unheard error ends the process.
  socket.on('error', () => socket.destroy())
  // The client's end of a connection answered already (408, say) reaches Node as one more parse
  // error; the first answer stands.
  if (answered.has(socket) || !socket.writable) {
    socket.destroy()
    return
  }
  answered.set(socket, problem)
  const { status, headers, body } = toErrorResponse(problem)
  const json = JSON.stringify(body)
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      // The id of the request the app is reading, if any; otherwise its headers were not read,
      // and the id is a fresh one.
      `X-Request-Id: ${requestIds.get(socket) ?? randomUUID()}\r\n` +
      `Content-Length: ${Buffer.byteLength(json)}\r\n` +
      extra.join('') +
      'Connection: close\r\n\r\n' +
      json,
  )
}

/**
 * Answers a request with the Error document of a problem, through its response, for a listener
 * that has no app of its own to do it (an `Expect` no server can meet, on the metrics listener).
 */
export const answerOnResponse = (req: IncomingMessage, res: ServerResponse, problem: RequestProblem): void => {
  const { status, headers, body } = toErrorResponse(problem)
  const json = JSON.stringify(body)
  const sent = req.headers['x-request-id']
  res
    .writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'X-Request-Id': requestIdFrom(typeof sent === 'string' ? sent : undefined),
      'Content-Length': Buffer.byteLength(json),
      ...headers,
    })
    .end(json)
}

/**
 * The problem this server answered on a socket by itself, if it did: a request the app was still
 * reading when Node's request timeout cut it shows up in the app as an aborted body, and the app
 * logs the status the client actually got. Keyed weakly, so it holds nothing once a socket is gone.
 */
export const problemAnsweredOn = (socket: unknown): RequestProblem | undefined =>
  typeof socket === 'object' && socket !== null ? answered.get(socket as Duplex) : undefined

const answered = new WeakMap<Duplex, RequestProblem>()

/**
 * Notes the id of the request the app is serving on a socket, until the returned function is
 * called, so an answer written on the socket by the server itself carries it.
 */
export const rememberRequestId = (socket: unknown, requestId: string): (() => void) => {
  if (typeof socket !== 'object' || socket === null) return () => undefined
  const key = socket as Duplex
  requestIds.set(key, requestId)
  return () => {
    if (requestIds.get(key) === requestId) requestIds.delete(key)
  }
}

const requestIds = new WeakMap<Duplex, string>()

// A reset or a closed socket has no one left to answer.
const problemOf = (code: string | undefined): RequestProblem | undefined => {
  if (code === 'ECONNRESET' || code === 'EPIPE') return undefined
  if (code === 'HPE_HEADER_OVERFLOW') return headersTooLarge
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return requestTimeout
  return malformedRequest
}
