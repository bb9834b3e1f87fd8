// One raw TCP connection of a fuzzed client: what it wrote, what the server sent while the client
// read, and how the connection ended, for the oracle to judge afterwards.
import { connect, type Socket } from 'node:net'

export interface Endpoint {
  readonly host: string
  readonly port: number
}

/** How a connection stands at the end of a scenario. */
export interface Transcript {
  /** Every byte the client read, in order. */
  readonly received: Buffer
  /** The server closed its end (FIN) while the client was reading. */
  readonly endedByServer: boolean
  /** The connection was reset or failed (by either side). */
  readonly failed: boolean
  /** The client stopped reading at some point: what came after was never read. */
  readonly stoppedReading: boolean
  /** The client dropped the connection itself. */
  readonly resetByClient: boolean
}

export interface WireConnection {
  readonly write: (bytes: string) => void
  readonly halfClose: () => void
  readonly stopReading: () => void
  readonly reset: () => void
  readonly closed: () => boolean
  /** When the client last read a byte, from performance.now(); its opening when none yet. */
  readonly lastReadAt: () => number
  readonly transcript: () => Transcript
}

/** Opens a connection to `endpoint`, from `localAddress` when given (a loopback address of 127.0.0.0/8). */
export const openWire = async ({ host, port }: Endpoint, localAddress?: string): Promise<WireConnection> => {
  const socket: Socket = connect({ port, host, ...(localAddress === undefined ? {} : { localAddress }) })
  // Trickled pieces go out as written, not gathered by Nagle's algorithm.
  socket.setNoDelay(true)
  const chunks: Buffer[] = []
  let lastReadAt = performance.now()
  let endedByServer = false
  let failed = false
  let stoppedReading = false
  let resetByClient = false
  let closed = false
  socket.on('data', (chunk: Buffer) => {
    chunks.push(chunk)
    lastReadAt = performance.now()
  })
  socket.on('end', () => (endedByServer = true))
  // A reset, or a write to a connection the server closed: outcomes to record, not failures of the fuzzer.
  socket.on('error', () => (failed = true))
  socket.on('close', () => (closed = true))
  // Not `once`: it rejects on 'error', and a refused connection (a listener stopped) is an outcome too.
  await new Promise<void>((resolve) => {
    socket.once('connect', resolve)
    socket.once('close', () => resolve())
  })
  return {
    write: (bytes) => {
      if (socket.writable) socket.write(Buffer.from(bytes, 'latin1'))
    },
    halfClose: () => {
      if (socket.writable) socket.end()
    },
    stopReading: () => {
      stoppedReading = true
      socket.pause()
    },
    reset: () => {
      resetByClient = true
      socket.destroy()
    },
    closed: () => closed,
    lastReadAt: () => lastReadAt,
    transcript: () => ({ received: Buffer.concat(chunks), endedByServer, failed, stoppedReading, resetByClient }),
  }
}
