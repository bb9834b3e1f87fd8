import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/** How many connections the server holds, how many one address may hold, and how long a silent one may stay. */
export interface ConnectionSlots {
  readonly maxConnections: number
  readonly maxConnectionsPerAddress: number
  /** How long a new connection may stay without sending a byte. */
  readonly firstByteTimeoutMs: number
}

/**
 * Shares the server's connection slots fairly. One address may hold at most its share; a
 * connection that has sent nothing is closed after `firstByteTimeoutMs`, much sooner than a slow
 * request's headers timeout; and when every slot is taken, an idle connection (one with no request
 * in flight: silent since it opened, or kept alive between requests) of the address holding the
 * most gives way to the new one, which is refused only when none is idle. Without this, one client
 * holding every slot with sockets it never writes to locked everyone else out, the load
 * balancer's probes included. Node's own `maxConnections` stays unset: it refuses the newcomer
 * before anyone could give way.
 */
export const shareConnectionSlots = (server: Server, slots: ConnectionSlots): void => {
  const byAddress = new Map<string, Set<Socket>>()
  let open = 0
  const inFlight = new WeakMap<Socket, number>()

  server.on('request', (req, res) => {
    const socket = req.socket
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1)
    res.once('close', () => inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1))
  })

  const idleToEvict = (): Socket | undefined => {
    const largestFirst = [...byAddress.values()].sort((a, b) => b.size - a.size)
    for (const sockets of largestFirst) {
      for (const socket of sockets) if ((inFlight.get(socket) ?? 0) === 0) return socket
    }
    return undefined
  }

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? ''
    const mine = byAddress.get(address) ?? new Set<Socket>()
    if (mine.size >= slots.maxConnectionsPerAddress) {
      socket.destroy()
      return
    }
    if (open >= slots.maxConnections) {
      const idle = idleToEvict()
      if (idle === undefined) {
        socket.destroy()
        return
      }
      forget(idle)
      idle.destroy()
    }
    mine.add(socket)
    byAddress.set(address, mine)
    open += 1
    const silent = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy()
    }, slots.firstByteTimeoutMs)
    silent.unref()
    socket.once('close', () => {
      clearTimeout(silent)
      forget(socket)
    })
  })

  const forget = (socket: Socket): void => {
    const address = socket.remoteAddress ?? ''
    const sockets = byAddress.get(address)
    if (sockets?.delete(socket) !== true) return
    open -= 1
    if (sockets.size === 0) byAddress.delete(address)
  }
}
