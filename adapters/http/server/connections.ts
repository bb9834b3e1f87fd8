import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { isIPv6, type Socket } from 'node:net'
import { stampRequestId } from '../context/request-context.js'
import type { RequestProblem } from '../errors/problems.js'

/** The bounds a server keeps on its connections. */
export interface ConnectionBounds {
  /** Most connections open at once. */
  readonly maxConnections: number
  /** Most connections one client (an IPv4 address, an IPv6 /64) may hold at once. */
  readonly maxConnectionsPerAddress: number
  /** How long a new connection may stay without sending a byte. */
  readonly firstByteTimeoutMs: number
  /** Most requests one connection may have waiting for their answers; one more closes it. */
  readonly maxRequestsWaiting: number
  /** How long an answer may make no progress onto the network before its connection is closed. */
  readonly sendTimeoutMs: number
}

/** An answer a connection owes, and the id of its request, stamped when the request was admitted. */
export interface OwedAnswer {
  readonly response: ServerResponse
  readonly requestId: string
}

/** What the server knows of one connection, for whoever answers on it. */
export interface SocketFacts {
  /** Answers owed on this connection, oldest first. */
  readonly owed: ReadonlyArray<OwedAnswer>
  /** The problem the server answered on this connection by itself, if it did: the first stands. */
  answered: RequestProblem | undefined
}

/** What the server knows of its connections, for the listeners that answer on them. */
export interface Connections {
  /**
   * Takes a request the server parsed into its connection's record, stamping its id on its
   * response, or closes the connection and answers false when that would pass a bound (too many
   * requests waiting on it) or the connection is gone: the request must then not be served.
   */
  readonly admit: (req: IncomingMessage, res: ServerResponse) => boolean
  /** What the server knows of a socket's connection; undefined once it is closed. */
  readonly factsOf: (socket: unknown) => SocketFacts | undefined
  /**
   * Closes every connection that has no request it could still finish: those with nothing owed
   * (idle, or headers half-sent), and those whose oldest request's body is still on its way.
   */
  readonly cutHalfSent: () => void
}

// One record per open connection.
interface Connection extends SocketFacts {
  readonly socket: Socket
  readonly client: string
  readonly owed: OwedAnswer[]
  /** `socket.bytesWritten` at the last check, and when output last moved (or had none to move). */
  written: number
  movedAt: number
}

// A connection whose output has not moved for this long, though it has some, is not reading its
// answers: at the cap it gives way before any idle one does.
const STALLED_AFTER_MS = 1_000

/**
 * Tracks the server's connections, one record per socket, and keeps their bounds. Connection
 * slots are shared fairly: a connection that has sent nothing is closed after
 * `firstByteTimeoutMs`, much sooner than a slow request's headers timeout; a client at its share
 * gets a slot only from one of its own connections, and when every slot is taken, from the client
 * holding the most. The connection that gives way is a stalled one (its answers not read) or
 * else an idle one (no answer owed); the new one is refused only when neither exists. Node's own `maxConnections` stays unset: it refuses
 * the newcomer before anyone could give way. Requests that wait on one connection are bounded (a
 * client that pipelines thousands and reads none would make the server hold every answer), and an
 * answer that makes no progress for `sendTimeoutMs` closes its connection: Node has no write
 * timeout of its own.
 */
export const trackConnections = (server: Server, bounds: ConnectionBounds): Connections => {
  const records = new Map<Socket, Connection>()
  const byClient = new Map<string, Set<Connection>>()

  const forget = (record: Connection): void => {
    if (!records.delete(record.socket)) return
    const mine = byClient.get(record.client)
    mine?.delete(record)
    if (mine?.size === 0) byClient.delete(record.client)
  }

  const isIdle = (record: Connection): boolean => record.owed.length === 0
  const isStalled = (record: Connection, now: number): boolean =>
    record.socket.writableLength > 0 && now - record.movedAt >= STALLED_AFTER_MS

  // A stalled connection first, then an idle one, of the given client's, or else of the client
  // holding the most.
  const toEvict = (clients: ReadonlyArray<ReadonlySet<Connection>>): Connection | undefined => {
    const now = performance.now()
    for (const test of [(record: Connection) => isStalled(record, now), isIdle]) {
      for (const mine of clients) for (const record of mine) if (test(record)) return record
    }
    return undefined
  }
  const largestFirst = (): ReadonlyArray<ReadonlySet<Connection>> => [...byClient.values()].sort((a, b) => b.size - a.size)

  server.on('connection', (socket: Socket) => {
    const client = clientOf(socket.remoteAddress)
    const mine = byClient.get(client) ?? new Set<Connection>()
    const full = mine.size >= bounds.maxConnectionsPerAddress ? [mine] : records.size >= bounds.maxConnections ? largestFirst() : undefined
    if (full !== undefined) {
      const evicted = toEvict(full)
      if (evicted === undefined) {
        socket.destroy()
        return
      }
      forget(evicted)
      evicted.socket.destroy()
    }
    const record: Connection = { socket, client, owed: [], answered: undefined, written: 0, movedAt: performance.now() }
    records.set(socket, record)
    mine.add(record)
    byClient.set(client, mine)
    const silent = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy()
    }, bounds.firstByteTimeoutMs)
    silent.unref()
    socket.once('close', () => {
      clearTimeout(silent)
      forget(record)
    })
  })

  // One sweep for every connection rather than a timer each: a check's cost is a comparison.
  const sweep = setInterval(
    () => {
      const now = performance.now()
      for (const record of records.values()) {
        const { socket } = record
        if (socket.writableLength === 0 || socket.bytesWritten !== record.written) {
          record.written = socket.bytesWritten
          record.movedAt = now
        } else if (now - record.movedAt >= bounds.sendTimeoutMs) {
          socket.destroy()
        }
      }
    },
    Math.max(50, Math.floor(Math.min(STALLED_AFTER_MS, bounds.sendTimeoutMs) / 4)),
  )
  sweep.unref()
  server.once('close', () => clearInterval(sweep))

  return {
    admit: (req, res) => {
      const record = records.get(req.socket)
      if (record === undefined || req.socket.destroyed) return false
      if (record.owed.length >= bounds.maxRequestsWaiting) {
        req.socket.destroy()
        return false
      }
      const owed: OwedAnswer = { response: res, requestId: stampRequestId(req, res) }
      record.owed.push(owed)
      const settled = (): void => {
        res.off('finish', settled)
        res.off('close', settled)
        const at = record.owed.indexOf(owed)
        if (at !== -1) record.owed.splice(at, 1)
      }
      res.once('finish', settled)
      res.once('close', settled)
      return true
    },
    factsOf: (socket) => records.get(socket as Socket),
    cutHalfSent: () => {
      for (const record of [...records.values()]) {
        const oldest = record.owed[0]
        if (oldest === undefined || !oldest.response.req.complete) record.socket.destroy()
      }
    },
  }
}

/**
 * The client a connection counts against: its IPv4 address, or the /64 network of its IPv6
 * address, the smallest block one subscriber is handed; counted per address, one host could take
 * every share with addresses it picks at will.
 */
export const clientOf = (address: string | undefined): string => {
  if (address === undefined) return ''
  if (!isIPv6(address)) return address
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped?.[1] !== undefined) return mapped[1]
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`
}

// The eight groups of an IPv6 address, `::` expanded, each without leading zeros; a zone is dropped.
const ipv6Groups = (address: string): string[] => {
  const [head = '', tail] = (address.split('%')[0] ?? '').split('::')
  const groupsOf = (text: string): string[] => (text === '' ? [] : text.split(':'))
  const left = groupsOf(head)
  const right = tail === undefined ? [] : groupsOf(tail)
  // An embedded IPv4 tail (::ffff:1.2.3.4 in another prefix) counts as two groups.
  const last = right.at(-1) ?? left.at(-1) ?? ''
  const width = last.includes('.') ? 7 : 8
  const zeros = Array.from({ length: Math.max(0, width - left.length - right.length) }, () => '0')
  return [...left, ...zeros, ...right].map((group) => (group.includes('.') ? group : (Number.parseInt(group, 16) || 0).toString(16)))
}
