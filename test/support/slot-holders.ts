// Connections that hold their slots without finishing a request, each reopened as the server
// closes it, as an attacker would: run in a worker thread of their own. On a test's own event
// loop, which is also the server's, their reconnects and drips would be charged to the server
// they attack, which no attacker, a process of its own, does to it.
import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'

/** How a hostile connection holds its slot. */
export type Hold = 'silent' | 'half-headers' | 'idle' | 'polling' | 'body-never' | 'body-trickle' | 'body-segments'

export interface Family {
  readonly hold: Hold
  readonly withToken: boolean
}

/** Who holds slots on the server at `port`: `count` connections from each `localAddress`. */
export interface SlotHolders {
  readonly port: number
  /** The token of the families that send one. */
  readonly token: string
  readonly groups: ReadonlyArray<{ readonly localAddress: string; readonly count: number; readonly family: Family }>
}

/** Starts the holders in a worker; resolves once each connection is on its way, with what stops them all. */
export const holdSlotsAside = async (holders: SlotHolders): Promise<() => Promise<void>> => {
  // This file is TypeScript: the worker registers tsx (its documented API) before importing it,
  // as Node 20 does not pass the loader mocha runs under on to a worker's first module.
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}) })`
  const worker = new Worker(bootstrap, { eval: true, workerData: holders })
  worker.on('error', () => undefined)
  await once(worker, 'message')
  return async () => {
    const exited = once(worker, 'exit')
    worker.postMessage('stop')
    await exited
  }
}

/** The head of a POST /plants with a body of `length` bytes, with the token when one is given. */
export const postHead = (token: string | undefined, length: number): string =>
  `POST /plants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n` +
  `${token === undefined ? '' : `Authorization: Bearer ${token}\r\n`}\r\n`

// Opens `count` connections from `localAddress` holding their slots as the family does, each
// reopened as the server closes it.
const holdSlots = (port: number, token: string, localAddress: string, count: number, { hold, withToken }: Family): (() => void) => {
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  let stopped = false
  const openOne = (): void => {
    if (stopped) return
    const socket = connect({ port, host: '127.0.0.1', localAddress })
    socket.on('error', () => undefined)
    socket.resume()
    sockets.add(socket)
    socket.on('connect', () => {
      if (hold === 'half-headers') socket.write('POST /plants HTTP/1.1\r\nHost: x\r\n')
      if (hold === 'idle' || hold === 'polling') socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
      if (hold === 'body-never' || hold === 'body-trickle' || hold === 'body-segments') socket.write(`${postHead(withToken ? token : undefined, 60_000)}{"id":`)
      // As ordinary clients look: a kept-alive connection asking every 4 s; a body that gains a
      // segment's worth every 4 s, just above the progress rule; a byte every 200 ms, below it.
      const every = (ms: number, write: () => void): void => {
        const drip = setInterval(write, ms)
        timers.add(drip)
        socket.once('close', () => clearInterval(drip))
      }
      if (hold === 'polling') every(4_000, () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'))
      if (hold === 'body-trickle') every(200, () => socket.write(' '))
      if (hold === 'body-segments') every(4_000, () => socket.write(' '.repeat(1_100)))
    })
    socket.on('close', () => {
      sockets.delete(socket)
      const again = setTimeout(openOne, 10)
      timers.add(again)
    })
  }
  for (let i = 0; i < count; i += 1) openOne()
  return () => {
    stopped = true
    for (const timer of timers) clearTimeout(timer)
    for (const socket of sockets) socket.destroy()
  }
}

if (!isMainThread && parentPort !== null) {
  const port = parentPort
  const { port: serverPort, token, groups } = workerData as SlotHolders
  const stops = groups.map(({ localAddress, count, family }) => holdSlots(serverPort, token, localAddress, count, family))
  port.once('message', () => {
    for (const stop of stops) stop()
    port.close()
  })
  port.postMessage('holding')
}
