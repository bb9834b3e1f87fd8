import { createServer, type RequestListener, type Server } from 'node:http'
import type Koa from 'koa'
import { answerClientErrors, answerOnResponse, answerOnSocket } from './parser-refusals.js'
import { trackConnections } from './connections.js'
import { expectationFailed, methodNotImplemented } from '../errors/problems.js'
import { requestIdFrom } from '../context/request-context.js'
import { readRequestHead } from '../context/request-head.js'
import type { Clock } from '../../../core/index.js'
import { MAX_TIMER_MS, systemClock, wholeNumberOption } from '../../../wire/index.js'

/**
 * How long a client may take, and how many may be connected at once: each a whole number of 1 or
 * more (of milliseconds at most 2147483647, the longest a Node timer waits), or the server is not
 * made (a RangeError names the limit).
 */
export interface HttpServerLimits {
  /** Longest wait for a request's headers, from the first byte of the request. */
  readonly headersTimeoutMs: number
  /** Longest wait for a whole request, headers and body; at least `headersTimeoutMs`. */
  readonly requestTimeoutMs: number
  /** Longest an idle keep-alive connection stays open between requests. */
  readonly keepAliveTimeoutMs: number
  /**
   * Most connections open at once. At the cap a new connection takes the slot of one the server is
   * waiting on its client for (silent, idle, a head or body on its way, answers unread): the
   * longest-waiting of the client holding the most such; it is closed as soon as it is accepted
   * only when the server is working for every connection it has.
   */
  readonly maxConnections: number
  /**
   * Most connections one client may hold at once: an IPv4 address, an IPv6 /64 network, whose /56
   * may hold twice as many and whose /48 four times. A request on one more is answered 503 with
   * `Retry-After`, unread, and that connection closed; the client's others are kept.
   */
  readonly maxConnectionsPerAddress: number
  /**
   * Most requests one connection may have waiting for their answers (pipelined); one more closes
   * the connection. `DEFAULT_MAX_REQUESTS_WAITING` when absent.
   */
  readonly maxRequestsWaiting?: number
  /**
   * Longest an answer may make no progress onto the network (a client that does not read it)
   * before its connection is closed. `DEFAULT_SEND_TIMEOUT_MS` when absent.
   */
  readonly sendTimeoutMs?: number
}

/**
 * Pipelining clients keep a few requests ahead; none needs dozens waiting on one connection, whose
 * answers go out in order behind the first (head-of-line blocking) while each holds memory.
 */
export const DEFAULT_MAX_REQUESTS_WAITING = 16

/** An answer stuck this long is not being read; the longest answer, the docs bundle, moves in far less. */
export const DEFAULT_SEND_TIMEOUT_MS = 10_000

// A client that opens a connection sends its request at once; one that stays silent this long is
// holding a slot, not making a request. Much shorter than the headers timeout, which is for
// headers that are on their way.
const FIRST_BYTE_TIMEOUT_MS = 2_000

// A body the server is reading must gain a segment's worth at least this often: as long as TCP's
// retransmission back-off ordinarily takes to deliver a segment lost a few times (its timer
// doubles from 1 s). A body that stalls longer is holding a slot; one waiting less gives way
// at the cap anyway.
const BODY_PROGRESS_TIMEOUT_MS = 10_000

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
 *
 * @example
 * ```ts
 * import { createHttpApp, createHttpServer, DEFAULT_HTTP_SERVER_LIMITS } from 'plant-store/adapters/http'
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 *
 * const app = createHttpApp({ plantStore: makeInMemoryPlantStore(), authenticator: makeStaticTokenAuthenticator(['s3cret-token']) })
 * const server = createHttpServer(app, { ...DEFAULT_HTTP_SERVER_LIMITS, maxConnections: 512 })
 * server.listen(8080, '127.0.0.1')
 * ```
 */
export const createHttpServer = (app: Koa, limits: HttpServerLimits = DEFAULT_HTTP_SERVER_LIMITS, clock: Clock = systemClock): BoundedServer => {
  const handle = app.callback()
  return createBoundedServer(
    (req, res) => void handle(req, res),
    limits,
    {
      checkContinue: (req, res) => {
        // The body stream is resumed when the app reads it; a response sent before then means the
        // body will never be read, and Node's own resume to drain it must not invite it either.
        req.once('resume', () => {
          if (!res.headersSent) res.writeContinue()
        })
        void handle(req, res)
      },
      checkExpectation: (req, res) => void handle(req, res),
    },
    clock,
  )
}

/** Listeners for requests that carry an `Expect` header, which Node reports apart from the others. */
export interface ExpectationListeners {
  /** A request with `Expect: 100-continue`; by default Node invites the body at once. */
  readonly checkContinue?: RequestListener
  /** A request with another `Expect`; by default a 417 Error document. */
  readonly checkExpectation?: RequestListener
}

/**
 * A Node HTTP server within the service's bounds, which can cut its half-sent requests when it
 * stops. Its `closeIdleConnections`, which `close` calls, closes the connections idle between
 * requests (answered, owing nothing, silent since) on every Node line: a connection that has not
 * sent its first request yet is left to `cutHalfSentRequests`, so a client that connected just
 * before a stop is served (Node 26's own closes such a connection too).
 */
export interface BoundedServer extends Server {
  /**
   * Cuts the connections that have no request they could still finish, for a server that has
   * stopped accepting and given them a moment: requests whose body is still on its way, and
   * headers half-sent. A client that has not finished sending by then would hold the shutdown for
   * the whole grace period, and the connections of everyone else with it.
   */
  readonly cutHalfSentRequests: () => void
}

/**
 * A Node HTTP server for any request listener (a `/metrics` endpoint, say), not yet listening,
 * with the service's bounds: the headers, request and keep-alive timeouts, the connection caps,
 * the requests waiting on one connection, a send timeout, Error documents for what Node's parser
 * refuses (a 408 included), and a 501 for CONNECT. Every request passes the same admission,
 * whichever event Node reports it with, which stamps its id (`X-Request-Id`) on its answer.
 * Its timeouts of its own and its admission rule run on `clock`.
 *
 * @example
 * ```ts
 * import { createBoundedServer, DEFAULT_HTTP_SERVER_LIMITS } from 'plant-store/adapters/http'
 *
 * const server = createBoundedServer((_request, response) => response.end('ok'), DEFAULT_HTTP_SERVER_LIMITS)
 * server.listen(9464, '127.0.0.1')
 * ```
 */
export const createBoundedServer = (
  listener: RequestListener,
  limits: HttpServerLimits,
  expectations: ExpectationListeners = {},
  clock: Clock = systemClock,
): BoundedServer => {
  const bounds = checkedLimits(limits)
  const server = createServer(
    {
      requireHostHeader: false,
      headersTimeout: bounds.headersTimeoutMs,
      requestTimeout: bounds.requestTimeoutMs,
      keepAliveTimeout: bounds.keepAliveTimeoutMs,
      // Node checks the two timeouts every 30 s by default, which would let a slow client stay
      // up to 30 s past them; a tenth of the shorter one keeps the overshoot small.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(bounds.headersTimeoutMs / 10))),
    },
  )
  const connections = trackConnections(
    server,
    {
      maxConnections: bounds.maxConnections,
      maxConnectionsPerAddress: bounds.maxConnectionsPerAddress,
      firstByteTimeoutMs: Math.min(FIRST_BYTE_TIMEOUT_MS, bounds.headersTimeoutMs),
      bodyProgressTimeoutMs: Math.min(BODY_PROGRESS_TIMEOUT_MS, bounds.requestTimeoutMs),
      maxRequestsWaiting: bounds.maxRequestsWaiting,
      sendTimeoutMs: bounds.sendTimeoutMs,
    },
    clock,
  )
  const admitted =
    (serve: RequestListener): RequestListener =>
    (req, res) => {
      if (connections.admit(req, res)) serve(req, res)
    }
  server.on('request', admitted(listener))
  const { checkContinue, checkExpectation } = expectations
  server.on(
    'checkContinue',
    admitted(
      checkContinue ??
        ((req, res) => {
          res.writeContinue()
          listener(req, res)
        }),
    ),
  )
  server.on('checkExpectation', admitted(checkExpectation ?? ((_req, res) => answerOnResponse(res, expectationFailed))))
  server.on('clientError', answerClientErrors(connections.factsOf))
  server.on('connect', (req, socket) =>
    answerOnSocket(socket, methodNotImplemented, requestIdFrom(readRequestHead(req).sentRequestId), connections.factsOf(socket)),
  )
  server.closeIdleConnections = connections.closeIdle
  return Object.assign(server, { cutHalfSentRequests: connections.cutHalfSent })
}

/**
 * What `server.cutHalfSentRequests()` does, for a server typed only as Node's: a server this
 * adapter did not create has nothing of the kind, and is left as it is.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { cutHalfSentRequests } from 'plant-store/adapters/http'
 *
 * const server = createServer((_request, response) => response.end('ok'))
 * process.once('SIGTERM', () => {
 *   server.close()
 *   cutHalfSentRequests(server) // a server this adapter did not create is left as it is
 * })
 * ```
 */
export const cutHalfSentRequests = (server: Server): void => {
  if (isBounded(server)) server.cutHalfSentRequests()
}

const isBounded = (server: Server): server is BoundedServer =>
  typeof (server as Partial<BoundedServer>).cutHalfSentRequests === 'function'

/**
 * Every limit, its default filled in, each a whole number in its range (a RangeError names the
 * first that is not): a cap of NaN would cap nothing, and Node's own checks name its options, not
 * these.
 */
const checkedLimits = (limits: HttpServerLimits): Required<HttpServerLimits> => {
  const ms = (option: keyof HttpServerLimits, value: unknown, least = 1): number =>
    wholeNumberOption('createHttpServer', option, value, least, MAX_TIMER_MS)
  const count = (option: keyof HttpServerLimits, value: unknown): number => wholeNumberOption('createHttpServer', option, value, 1)
  const headersTimeoutMs = ms('headersTimeoutMs', limits.headersTimeoutMs)
  return {
    headersTimeoutMs,
    // The whole request includes its headers.
    requestTimeoutMs: ms('requestTimeoutMs', limits.requestTimeoutMs, headersTimeoutMs),
    keepAliveTimeoutMs: ms('keepAliveTimeoutMs', limits.keepAliveTimeoutMs),
    maxConnections: count('maxConnections', limits.maxConnections),
    maxConnectionsPerAddress: count('maxConnectionsPerAddress', limits.maxConnectionsPerAddress),
    maxRequestsWaiting: count('maxRequestsWaiting', limits.maxRequestsWaiting ?? DEFAULT_MAX_REQUESTS_WAITING),
    sendTimeoutMs: ms('sendTimeoutMs', limits.sendTimeoutMs ?? DEFAULT_SEND_TIMEOUT_MS),
  }
}
