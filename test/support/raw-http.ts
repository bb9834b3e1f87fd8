import { expect } from 'chai'
import { once } from 'node:events'
import { request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { checkRawExchange } from './traffic-check.js'

/** A raw TCP connection to a test server, for what fetch will not send: trickles, bad framing. */
export interface RawConnection {
  readonly socket: Socket
  /** Everything the server has sent so far, as latin1 text. */
  readonly received: () => string
  /** Resolves once the server has closed the connection (or it was reset). */
  readonly closed: Promise<void>
  readonly write: (text: string) => void
}

export const openRaw = (url: string): Promise<RawConnection> => openRawFrom(url)

/** A raw connection from `localAddress` (one of 127.0.0.0/8, so that the server sees another client). */
export const openRawFrom = async (url: string, localAddress?: string): Promise<RawConnection> => {
  const { hostname, port } = new URL(url)
  const socket = connect({ port: Number(port), host: hostname, ...(localAddress === undefined ? {} : { localAddress }) })
  let received = ''
  socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk))
  // Writing to a connection the server has closed resets it: that is an outcome, not a failure.
  socket.on('error', () => {})
  const closed = once(socket, 'close').then(() => undefined)
  await once(socket, 'connect')
  return {
    socket,
    received: () => received,
    closed,
    write: (text) => {
      if (!socket.destroyed) socket.write(text)
    },
  }
}

/** Resolves true when `event` settles within `ms`, false otherwise. */
export const settlesWithin = async (event: Promise<unknown>, ms: number): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)))
  const result = await Promise.race([event.then(() => true), late])
  clearTimeout(timer)
  return result
}

/** Waits until the server has sent text matching `pattern`, for at most `ms`. */
export const waitForText = async (connection: RawConnection, pattern: RegExp, ms: number): Promise<void> => {
  const deadline = Date.now() + ms
  while (!pattern.test(connection.received()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  expect(connection.received(), `server's bytes within ${ms} ms`).to.match(pattern)
}

export interface RawResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** The final responses in the server's bytes (interim 1xx left out), each with its Content-Length body. */
export const finalResponses = (text: string): ReadonlyArray<RawResponse> => {
  const responses: RawResponse[] = []
  let rest = text
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n')
    if (end === -1) break
    const [statusLine = '', ...fields] = rest.slice(0, end).split('\r\n')
    const headers = Object.fromEntries(
      fields.map((field) => [field.slice(0, field.indexOf(':')).toLowerCase(), field.slice(field.indexOf(':') + 1).trim()]),
    )
    const length = Number(headers['content-length'] ?? 0)
    const status = Number(statusLine.split(' ')[1])
    if (status >= 200) responses.push({ status, headers, body: rest.slice(end + 4, end + 4 + length) })
    rest = rest.slice(end + 4 + (status >= 200 ? length : 0))
  }
  return responses
}

/** Asserts that the bytes hold exactly one final response: an Error document with this status. */
export const expectOneRawErrorDocument = (text: string, status: number): RawResponse => {
  const responses = finalResponses(text)
  expect(responses.map((r) => r.status), 'final responses').to.deep.equal([status])
  const [response] = responses as [RawResponse]
  expect(response.headers['content-type']).to.match(/^application\/json\b/)
  const body = JSON.parse(response.body) as Record<string, unknown>
  expect(Object.keys(body).sort()).to.deep.equal(['error', 'message'])
  expect(body['error']).to.equal(status)
  return response
}

/**
 * Sends raw bytes to a server started by the tests and answers everything it sends back until it
 * closes, checked against the OpenAPI document like every other answer. For what fetch cannot
 * send: a request without Host, a broken request line, TRACE, headers that never end.
 */
export const rawExchange = async (url: string, request: string): Promise<string> => {
  const reply = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () => socket.write(request))
    let received = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk))
    socket.on('close', () => resolve(received))
    socket.on('error', reject)
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')))
  })
  await checkRawExchange(url, request, reply)
  return reply
}

/**
 * The status of a GET /healthz on a connection of its own from `localAddress` (one of
 * 127.0.0.0/8, so that the server sees another client), or 0 when no answer came within 2 s.
 */
export const healthzFrom = (port: number, localAddress = '127.0.0.1'): Promise<number> =>
  new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', localAddress, agent: false, timeout: 2000 }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(0))
    req.end()
  })
