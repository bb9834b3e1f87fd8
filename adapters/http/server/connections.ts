import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { requestIdFrom, serveConnection } from '../context/request-context.js'
import { readRequestHead } from '../context/request-head.js'
import { connectionsOverShare, requestTimeout, type RequestProblem } from '../errors/problems.js'
import type { Clock } from '../../../core/index.js'
import { connectionToClose, STALLED_AFTER_MS, type ConnectionView } from './admission.js'
import { clientOf, sharesOf, type Client } from '../context/client-networks.js'
import { answerOnResponse, answerOnSocket } from './parser-refusals.js'
import type { OwedAnswer, SocketFacts } from './socket-facts.js'

export type { OwedAnswer, SocketFacts } from './socket-facts.js'

/** The bounds a server keeps on its connections. */
export interface ConnectionBounds {
  /** Most connections open at once. */
  readonly maxConnections: number
  /**
   * Most connections one client may hold at once in its narrowest network (an IPv4 address, an
   * IPv6 /64); the networks around a /64 hold more (see `sharesOf`).
   */
  readonly maxConnectionsPerAddress: number
  /** How long a new connection may stay without sending a byte. */
  readonly firstByteTimeoutMs: number
  /** How long a body the server is reading may go without progress (`MIN_PROGRESS_BYTES`, or its end). */
  readonly bodyProgressTimeoutMs: number
  /** Most requests one connection may have waiting for their answers; one more closes it. */
  readonly maxRequestsWaiting: number
  /** How long an answer may make no progress onto the network before its connection is closed. */
  readonly sendTimeoutMs: number
}

/** What the server knows of its connections, for the listeners that answer on them. */
export interface Connections {
  /**
   * Takes a request the server parsed into its connection's record, with its head and its id
   * (stamped on its response; the app that serves the request finds both through
   * `servedRequestOf`), or answers false when the request must not be served: the connection is
   * over its client's share (the request is answered 503 and the connection closes after it), it
   * would pass a bound (too many requests waiting on it: it is closed), or it is gone.
   */
  readonly admit: (req: IncomingMessage, res: ServerResponse) => boolean
  /** What the server knows of a socket's connection; undefined once it is closed. */
  readonly factsOf: (socket: unknown) => SocketFacts | undefined
  /**
   * Closes every connection that has no request it could still finish: those with nothing owed
   * (idle, or headers half-sent), and those whose oldest request's body is still on its way.
   */
  readonly cutHalfSent: () => void
  /**
   * Closes every connection idle between requests: answered at least once, owing nothing, and
   * silent since. One that has not sent its first request yet is left for `cutHalfSent`, so a
   * client that connected just before a stop still has its request served (Node 26's
   * `closeIdleConnections` closes such a connection too).
   */
  readonly closeIdle: () => void
}

// One record per open connection.
interface Connection extends SocketFacts {
  readonly socket: Socket
  readonly client: Client
  /** The networks it counts against, the narrowest first; none for a connection over its share. */
  readonly networks: ReadonlyArray<string>
  readonly owed: OwedAnswer[]
  /** `socket.bytesWritten` at the last check, and when output last moved (or had none to move). */
  written: number
  movedAt: number
  /** `socket.bytesRead` at the last progress of input, and when it was (or when none was awaited). */
  read: number
  heardAt: number
  /** When it last owed nothing. */
  idleSince: number
  /** `socket.bytesRead` when its last answer left it owing nothing; undefined before its first. */
  readWhenIdle: number | undefined
}

// What a body must gain to count as progress, unless it ends first: one full TCP segment. A byte
// now and then keeps no timer from firing; a client on a slow link sends segments, not bytes.
const MIN_PROGRESS_BYTES = 1_024

/**
 * Tracks the server's connections, one record per socket, and keeps one admission rule for the
 * slots they hold (docs/limits.md, "At the connection cap"): at the cap a newcomer takes the slot
 * of a connection waiting on its client, the longest-waiting one of the client holding the most
 * (`connectionToClose`), so slowloris-style slot holding sheds its own slots first and work under
 * way is never cut; a body so cut is answered 503 with `Retry-After`. A connection past its
 * client's share holds nothing (its request is answered 503 unread) and goes first. Timeouts end
 * what waits meanwhile: a first byte, a body's progress (408), answers not read (Node has no write
 * timeout of its own). Node's own `maxConnections` stays unset: it refuses the newcomer before
 * anyone could give way. Requests waiting on one connection are bounded: a client that pipelines
 * thousands and reads none would make the server hold every answer.
 */
export const trackConnections = (server: Server, bounds: ConnectionBounds, clock: Clock): Connections => {
  const records = new Map<Socket, Connection>()
  const overShare = new Set<Connection>()
  const held = new Map<string, number>()

  const forget = (record: Connection): void => {
    if (!records.delete(record.socket)) return
    overShare.delete(record)
    for (const network of record.networks) {
      const count = (held.get(network) ?? 1) - 1
      if (count === 0) held.delete(network)
      else held.set(network, count)
    }
  }

  // The request whose body the server is reading now: the oldest owed, not yet whole, its body
  // flowing (a body the app has not asked for, `Expect: 100-continue` included, is not awaited).
  const bodyAwaited = (record: Connection): OwedAnswer | undefined => {
    const oldest = record.owed[0]
    const req = oldest?.response.req
    return req !== undefined && !req.complete && req.readableFlowing === true ? oldest : undefined
  }
  const viewOf = (record: Connection): ConnectionView => ({
    client: record.client.key,
    closing: record.answered !== undefined,
    unsentBytes: record.socket.writableLength,
    movedAt: record.movedAt,
    owed: record.owed.length,
    bodyAwaited: bodyAwaited(record) !== undefined,
    idleSince: record.idleSince,
    heardAt: record.heardAt,
  })
  const toClose = (): Connection | undefined => {
    for (const record of overShare) return record
    return connectionToClose(records.values(), viewOf, clock.now())
  }

  // A request whose body was on its way is answered, with its id, before its connection closes:
  // unread, it was not served, and its client is told so; anything else has no one to answer.
  const cut = (record: Connection, problem: RequestProblem): void => {
    forget(record)
    const { socket } = record
    const awaited = bodyAwaited(record)
    if (awaited === undefined || socket.writableLength > 0) {
      socket.destroy()
      return
    }
    answerOnSocket(socket, problem, awaited.requestId, record)
    if (!socket.destroyed) socket.once('finish', () => socket.destroy())
  }

  server.on('connection', (socket: Socket) => {
    const client = clientOf(socket)
    const shares = sharesOf(client, bounds.maxConnectionsPerAddress)
    const over = shares.some(({ network, bound }) => (held.get(network) ?? 0) >= bound)
    if (records.size >= bounds.maxConnections) {
      const closed = over ? undefined : toClose()
      if (closed === undefined) {
        socket.destroy()
        return
      }
      cut(closed, connectionsOverShare)
    }
    const now = clock.now()
    const networks = over ? [] : client.networks
    const record: Connection = { socket, client, networks, owed: [], answered: undefined, written: 0, movedAt: now, read: 0, heardAt: now, idleSince: now, readWhenIdle: undefined }
    records.set(socket, record)
    serveConnection(socket, record)
    if (over) overShare.add(record)
    for (const network of networks) held.set(network, (held.get(network) ?? 0) + 1)
    const cancelSilent = clock.setTimer(bounds.firstByteTimeoutMs, () => {
      if (socket.bytesRead === 0) socket.destroy()
    })
    socket.once('close', () => {
      cancelSilent()
      forget(record)
    })
  })

  // One sweep for every connection rather than timers each: a check's cost is a few comparisons.
  const sweep = (): void => {
    const now = clock.now()
    for (const record of [...records.values()]) {
      const { socket } = record
      if (socket.writableLength === 0 || socket.bytesWritten !== record.written) {
        record.written = socket.bytesWritten
        record.movedAt = now
      } else if (now - record.movedAt >= bounds.sendTimeoutMs) {
        socket.destroy()
        continue
      }
      const awaited = bodyAwaited(record)
      const gained = socket.bytesRead - record.read
      // Between requests any byte is progress; while the server works on a request, its client
      // owes nothing; a body must gain a segment's worth.
      if (awaited === undefined ? gained > 0 || record.owed.length > 0 : gained >= MIN_PROGRESS_BYTES) {
        record.read = socket.bytesRead
        record.heardAt = now
      } else if (awaited !== undefined && record.answered === undefined && now - record.heardAt >= bounds.bodyProgressTimeoutMs) {
        cut(record, requestTimeout)
      }
    }
  }
  const sweepEveryMs = Math.max(50, Math.floor(Math.min(STALLED_AFTER_MS, bounds.sendTimeoutMs) / 4))
  let cancelSweep = clock.setTimer(sweepEveryMs, function next() {
    sweep()
    cancelSweep = clock.setTimer(sweepEveryMs, next)
  })
  server.once('close', () => cancelSweep())

  return {
    admit: (req, res) => {
      const record = records.get(req.socket)
      if (record === undefined || req.socket.destroyed) return false
      if (record.owed.length >= bounds.maxRequestsWaiting) {
        req.socket.destroy()
        return false
      }
      // The head is read here, once: the app serving the request is handed it with the id.
      const head = readRequestHead(req)
      const owed: OwedAnswer = { response: res, head, requestId: requestIdFrom(head.sentRequestId), connection: record }
      // On the response for whatever answers it, the app or the server itself.
      res.setHeader('X-Request-Id', owed.requestId)
      if (overShare.has(record)) {
        // Its body is never invited nor read: the connection closes after the answer.
        res.setHeader('Connection', 'close')
        answerOnResponse(res, connectionsOverShare)
        return false
      }
      record.owed.push(owed)
      const settled = (): void => {
        res.off('finish', settled)
        res.off('close', settled)
        const at = record.owed.indexOf(owed)
        if (at !== -1) record.owed.splice(at, 1)
        if (record.owed.length === 0) {
          record.idleSince = clock.now()
          record.readWhenIdle = record.socket.bytesRead
        }
      }
      res.once('finish', settled)
      res.once('close', settled)
      return true
    },
    factsOf: (socket) => records.get(socket as Socket),
    closeIdle: () => {
      for (const record of [...records.values()]) {
        if (record.owed.length === 0 && record.readWhenIdle === record.socket.bytesRead) record.socket.destroy()
      }
    },
    cutHalfSent: () => {
      for (const record of [...records.values()]) {
        const oldest = record.owed[0]
        if (oldest === undefined || !oldest.response.req.complete) record.socket.destroy()
      }
    },
  }
}
