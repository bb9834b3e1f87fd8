/**
 * Where the coded bodies of one app wait for a decoder. A brotli decoder may reserve a 16 MiB
 * window, so hundreds decoding at once exhaust the address space: at most `concurrency` run at
 * once. The turns go round the connections that have a body waiting, one body each, so a client
 * that sends many bodies, on one connection or pipelined, waits behind its own and not in front
 * of everyone else's. A body that cannot start within `maxWaitMs` is not decoded: the wait of a
 * request is bounded whatever the others send.
 */
export interface DecodeQueue {
  /**
   * Runs `decode` in the turn of `connection` (any value that stands for it: its socket), or
   * resolves `tooLate` without running it when its turn does not come within the wait. Settles as
   * `decode` does.
   */
  readonly decode: <A>(connection: object, decode: () => Promise<A>, tooLate: A) => Promise<A>
}

export interface DecodeQueueOptions {
  /** Bodies decoded at once. */
  readonly concurrency: number
  /** Longest a body waits for its turn. */
  readonly maxWaitMs: number
}

/** One decode at a time, each waiting at most 5 s: the storage deadline a stored plant also has. */
export const DEFAULT_DECODE_QUEUE_OPTIONS: DecodeQueueOptions = { concurrency: 1, maxWaitMs: 5_000 }

interface Waiting {
  readonly start: () => void
  readonly expire: () => void
  readonly timer: NodeJS.Timeout
}

export const makeDecodeQueue = ({ concurrency, maxWaitMs }: DecodeQueueOptions = DEFAULT_DECODE_QUEUE_OPTIONS): DecodeQueue => {
  // A Map keeps insertion order: the connection served last goes to the back of the round.
  const waiting = new Map<object, Waiting[]>()
  let running = 0

  const next = (): void => {
    while (running < concurrency) {
      const first = waiting.entries().next()
      if (first.done === true) return
      const [connection, bodies] = first.value
      waiting.delete(connection)
      const body = bodies.shift()
      if (bodies.length > 0) waiting.set(connection, bodies)
      if (body === undefined) continue
      clearTimeout(body.timer)
      body.start()
    }
  }

  const leave = (connection: object, body: Waiting): void => {
    const bodies = waiting.get(connection)
    const at = bodies?.indexOf(body) ?? -1
    if (bodies === undefined || at === -1) return
    bodies.splice(at, 1)
    if (bodies.length === 0) waiting.delete(connection)
  }

  return {
    decode: (connection, decode, tooLate) =>
      new Promise((resolve, reject) => {
        const body: Waiting = {
          start: () => {
            running += 1
            decode()
              .then(resolve, reject)
              .finally(() => {
                running -= 1
                next()
              })
          },
          expire: () => {
            leave(connection, body)
            resolve(tooLate)
          },
          timer: setTimeout(() => body.expire(), maxWaitMs).unref(),
        }
        const bodies = waiting.get(connection)
        if (bodies === undefined) waiting.set(connection, [body])
        else bodies.push(body)
        next()
      }),
  }
}
