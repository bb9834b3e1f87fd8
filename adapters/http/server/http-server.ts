import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http'
import type Koa from 'koa'
import { answerClientError, answerOnSocket } from './parser-refusals.js'
import { shareConnectionSlots } from './connection-slots.js'
import { methodNotImplemented } from '../errors/problems.js'

/** How long a client may take, and how many may be connected at once. */
export interface HttpServerLimits {
  /** Longest wait for a request's headers, from the first byte of the request. */
  readonly headersTimeoutMs: number
  /** Longest wait for a whole request, headers and body; at least `headersTimeoutMs`. */
  readonly requestTimeoutMs: number
  /** Longest an idle keep-alive connection stays open between requests. */
  readonly keepAliveTimeoutMs: number
  /**
   * Most connections open at once. At the cap an idle connection gives way to a new one; a new one
   * is closed as soon as it is accepted only when none is idle.
   */
  readonly maxConnections: number
  /** Most connections one client address may hold at once; one more is closed as soon as it is accepted. */
  readonly maxConnectionsPerAddress: number
}

// A client that opens a connection sends its request at once; one that stays silent this long is
// holding a slot, not making a request. Much shorter than the headers timeout, which is for
// headers that are on their way.
const FIRST_BYTE_TIMEOUT_MS = 2_000

export const DEFAULT_HTTP_SERVER_LIMITS: HttpServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
  maxConnectionsPerAddress: 100,
}

/**
 * A Node HTTP server for the app, not yet listening, within the given limits. Requests Node's
 * parser refuses are answered with Error documents too; a missing Host header is left for the app
 * to refuse the same way (Node's own check would answer a bare 400), and so is an `Expect` the
 * service cannot meet (Node's own 417 has no body). A request that expects `100-continue` is
 * invited to send its body only once the app starts reading it, so a request refused first
 * (401, 403, 415) never sends it. CONNECT, which Node would answer by closing the connection
 * without a word, gets a 501 Error document.
 */
export const createHttpServer = (app: Koa, limits: HttpServerLimits = DEFAULT_HTTP_SERVER_LIMITS): Server => {
  const handle = app.callback()
  const server = createBoundedServer((req, res) => void handle(req, res), limits)
  server.on('checkContinue', (req, res) => {
    // The body stream is resumed when the app reads it; a response sent before then means the
    // body will never be read, and Node's own resume to drain it must not invite it either.
    req.once('resume', () => {
      if (!res.headersSent) res.writeContinue()
    })
    void handle(req, res)
  })
  server.on('checkExpectation', (req, res) => void handle(req, res))
  return server
}

/**
 * A Node HTTP server for any request listener (a `/metrics` endpoint, say), not yet listening,
 * with the service's bounds: the headers, request and keep-alive timeouts, a cap on connections,
 * Error documents for what Node's parser refuses (a 408 included), and a 501 for CONNECT.
 */
export const createBoundedServer = (listener: RequestListener, limits: HttpServerLimits): Server => {
  const server = createServer(
    {
      requireHostHeader: false,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts every 30 s by default, which would let a slow client stay
      // up to 30 s past them; a tenth of the shorter one keeps the overshoot small.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 10))),
    },
    listener,
  )
  shareConnectionSlots(server, {
    maxConnections: limits.maxConnections,
    maxConnectionsPerAddress: limits.maxConnectionsPerAddress,
    firstByteTimeoutMs: Math.min(FIRST_BYTE_TIMEOUT_MS, limits.headersTimeoutMs),
  })
  server.on('clientError', answerClientError)
  server.on('connect', (_req, socket) => answerOnSocket(socket, methodNotImplemented))
  const receiving = new Set<IncomingMessage>()
  server.on('request', (req: IncomingMessage) => {
    if (req.complete) return
    receiving.add(req)
    const received = (): void => void receiving.delete(req)
    req.once('end', received)
    req.once('close', received)
  })
  halfSent.set(server, receiving)
  return server
}

const halfSent = new WeakMap<Server, ReadonlySet<IncomingMessage>>()

/**
 * Cuts the connections of requests whose body is still on its way, for a server that has stopped
 * accepting and given them a moment: a client that has not finished sending by then would hold
 * the shutdown for the whole grace period, and the connections of everyone else with it.
 */
export const cutHalfSentRequests = (server: Server): void => {
  for (const req of halfSent.get(server) ?? []) if (!req.complete) req.socket.destroy()
}
