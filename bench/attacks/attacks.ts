// The attacks of the hostile-client rounds that a client can keep up for as long as it likes,
// each as raw sockets from addresses of its own (127.0.0.2 and up; the legitimate client is
// 127.0.0.1). Each runs until its process is stopped: a connection the service closes is opened
// again, as a determined client would.
import { type Socket, connect } from 'node:net'
import { gzipSync } from 'node:zlib'

export const TOKEN = 'attack-bench-token-0123456789'
export const HOST = '127.0.0.1'

/** One attack: what the table calls it, what it does, the service's settings it needs, and how to start it. */
export interface Attack {
  readonly key: string
  readonly description: string
  /** What the legitimate client beside it sends: plain JSON, gzip-coded JSON, or scrapes of the metrics listener. */
  readonly legitimate: 'json' | 'gzip' | 'scrape'
  readonly serviceEnv: Readonly<Record<string, string>>
  /** Starts it against the public listener's port, and the metrics listener's when the service has one. */
  readonly start: (port: number, metricsPort: number) => void
}

const attackerAddress = (index: number): string => `127.0.0.${2 + (index % 10)}`
// One address each for many clients: 127.1.0.1 to 127.1.3.232 for a thousand.
const manyAddress = (index: number): string => `127.1.${Math.floor(index / 250)}.${1 + (index % 250)}`

const post = (headers: string, body: Buffer | string): Buffer =>
  Buffer.concat([
    Buffer.from(
      `POST /plants HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
        `${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    ),
    Buffer.isBuffer(body) ? body : Buffer.from(body),
  ])

/**
 * Counts the answers in a stream of responses without copying their bodies: each head is read to
 * its Content-Length, and that many bytes are skipped. The attacker's process shares a core with
 * the legitimate client, so what it pays for reading answers must stay small.
 */
const answerCounter = (): ((chunk: Buffer) => number) => {
  let head = Buffer.alloc(0)
  let bodyLeft = 0
  return (chunk) => {
    let answers = 0
    let at = 0
    while (at < chunk.length) {
      if (bodyLeft > 0) {
        const skipped = Math.min(bodyLeft, chunk.length - at)
        bodyLeft -= skipped
        at += skipped
        continue
      }
      head = Buffer.concat([head, chunk.subarray(at)])
      const end = head.indexOf('\r\n\r\n')
      if (end === -1) return answers
      const text = head.subarray(0, end).toString('latin1')
      at = chunk.length - (head.length - end - 4)
      head = Buffer.alloc(0)
      bodyLeft = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? 0)
      if (!text.startsWith('HTTP/1.1 1')) answers += 1
    }
    return answers
  }
}

/**
 * A connection that writes `first` on connecting, `next()` after each answer (or every `everyMs`
 * when given, answered or not), and reconnects when closed.
 */
const keepSending = (port: number, localAddress: string, first: () => Buffer, next?: () => Buffer, everyMs?: number): void => {
  const open = (): void => {
    const socket: Socket = connect({ port, host: HOST, localAddress })
    socket.setNoDelay(true)
    socket.on('error', () => {})
    socket.on('connect', () => socket.write(first()))
    if (next !== undefined && everyMs !== undefined) {
      socket.resume()
      const timer = setInterval(() => socket.write(next()), everyMs)
      socket.on('close', () => clearInterval(timer))
    } else if (next !== undefined) {
      const answersIn = answerCounter()
      socket.on('data', (chunk: Buffer) => {
        for (let answers = answersIn(chunk); answers > 0; answers -= 1) socket.write(next())
      })
    }
    socket.on('close', () => setTimeout(open, 10))
  }
  open()
}

let ids = 1_000_000_000
const smallGzipPlant = (): Buffer => post('Content-Encoding: gzip\r\n', gzipSync(`{"id":${(ids += 1)},"name":"Attack"}`))
const LIMIT_16_MIB = 16 * 1024 * 1024
// Bodies that decode to just under a limit: whitespace, so all of it is decoded and scanned.
const DEFAULT_LIMIT = 64 * 1024
const bombOf = (bytes: number): Buffer => post('Content-Encoding: gzip\r\n', gzipSync(Buffer.alloc(bytes - 1024, ' ')))
const bomb = bombOf(LIMIT_16_MIB)
const smallBomb = bombOf(DEFAULT_LIMIT)
const longAcceptEncoding = `Accept-Encoding: ${Array.from({ length: 1500 }, (_, i) => `x-${i};q=0.${i % 10}`).join(', ')}\r\n`.slice(0, 15_000)
const openApiWithLongHeader = Buffer.from(`GET /openapi.json HTTP/1.1\r\nHost: bench\r\n${longAcceptEncoding}\r\n\r\n`)
const DOCS_BUNDLE = Buffer.from('GET /docs/swagger-ui-bundle.js HTTP/1.1\r\nHost: bench\r\n\r\n')

const times = (count: number, each: (index: number) => void): void => {
  for (let index = 0; index < count; index += 1) each(index)
}

const HEALTHZ = Buffer.from('GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n')
const HALF_SENT_SCRAPE = Buffer.from('GET /metrics HTTP/1.1\r\nHost: bench\r\n')

export const ATTACKS: ReadonlyArray<Attack> = [
  {
    key: 'flood',
    description: 'the reference: 10 connections of 10 addresses asking for /healthz, the cheapest answer, kept alive',
    legitimate: 'json',
    serviceEnv: {},
    start: (port) => times(10, (i) => keepSending(port, attackerAddress(i), () => HEALTHZ, () => HEALTHZ)),
  },
  {
    key: 'idle-1000',
    description: '1,000 addresses, one kept-alive connection each asking for /healthz every 4 s, no token (1,000 ordinary clients look the same)',
    legitimate: 'json',
    serviceEnv: {},
    start: (port) => times(1000, (i) => keepSending(port, manyAddress(i), () => HEALTHZ, () => HEALTHZ, 4_000)),
  },
  {
    key: 'metrics-hold',
    description: 'the metrics listener (8 slots): one half-sent request from each of 8 addresses, reopened as it is closed',
    legitimate: 'scrape',
    serviceEnv: {},
    start: (_port, metricsPort) => times(8, (i) => keepSending(metricsPort, manyAddress(i), () => HALF_SENT_SCRAPE)),
  },
  {
    key: 'F1',
    description: '10 addresses x 100 connections, each with a token, headers sent, the body never',
    legitimate: 'json',
    serviceEnv: {},
    start: (port) => times(1000, (i) => keepSending(port, attackerAddress(i), () => Buffer.from(post('', '').toString().replace('Content-Length: 0', 'Content-Length: 100')))),
  },
  {
    key: 'R6',
    description: '20 connections of one address sending small gzip plants as fast as they are answered',
    legitimate: 'gzip',
    serviceEnv: {},
    start: (port) => times(20, () => keepSending(port, attackerAddress(0), smallGzipPlant, smallGzipPlant)),
  },
  {
    key: 'R6-limit',
    description: '5 connections of one address sending gzip bodies that decode to the default BODY_LIMIT (64 KiB)',
    legitimate: 'gzip',
    serviceEnv: {},
    start: (port) => times(5, () => keepSending(port, attackerAddress(0), () => smallBomb, () => smallBomb)),
  },
  {
    key: 'R6-16MiB',
    description: 'BODY_LIMIT=16MiB: 5 connections of one address sending gzip bodies that decode to the limit',
    legitimate: 'gzip',
    serviceEnv: { BODY_LIMIT: String(LIMIT_16_MIB) },
    start: (port) => times(5, () => keepSending(port, attackerAddress(0), () => bomb, () => bomb)),
  },
  {
    key: 'F2',
    description: '10 connections asking for /openapi.json with a 15 KB Accept-Encoding, kept alive',
    legitimate: 'json',
    serviceEnv: {},
    start: (port) => times(10, (i) => keepSending(port, attackerAddress(i), () => openApiWithLongHeader, () => openApiWithLongHeader)),
  },
  {
    key: 'R11',
    description: '10 connections asking for the uncompressed /docs bundle, kept alive',
    legitimate: 'json',
    serviceEnv: {},
    start: (port) => times(10, (i) => keepSending(port, attackerAddress(i), () => DOCS_BUNDLE, () => DOCS_BUNDLE)),
  },
]

