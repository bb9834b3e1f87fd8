import { pino, type DestinationStream, type Logger as Pino } from 'pino'
import type { Cancel, Clock, Logger } from '../../core/index.js'
import { systemClock } from '../../wire/index.js'
import type { LogLevel } from './env-codecs.js'

/**
 * Credentials and cookies, wherever a line might carry them: at the top level, in `headers`, and
 * in `req`/`res` (pino's conventions for a request and a response). pino removes them before a
 * line is written, whatever code logged them; today no line logs a header or a token. Paths are
 * spelled out, not wildcards: a `*.` path costs pino a walk of every line's object, several times
 * the cost of the line itself (docs/performance.md).
 */
export const REDACTED_PATHS: ReadonlyArray<string> = ['', 'headers.', 'req.', 'req.headers.', 'res.', 'res.headers.'].flatMap(
  (prefix) =>
    ['authorization', 'Authorization', 'cookie', 'Cookie', '"set-cookie"', '"Set-Cookie"', 'token', 'accessToken', 'password'].map(
      (field) => (field.startsWith('"') ? `${prefix.replace(/\.$/, '')}[${field}]` : `${prefix}${field}`),
    ),
)

/** stdout as the service's log destination, with what it had to drop. */
export interface StdoutLog extends DestinationStream {
  /** Lines dropped so far: stdout's reader fell more than the buffer behind, or is gone. */
  readonly dropped: () => number
  /** Called once each time writing resumes after lines were dropped, with how many were. */
  readonly onCaughtUp: (listener: (count: number) => void) => void
}

/** How long the process may spend, as it exits, writing the lines still buffered. */
export const EXIT_FLUSH_MS = 1_000

/** The longest a line waits for others to share its write. */
export const LOG_FLUSH_MS = 10

// Lines are written together once this many bytes wait (sonic-boom's `minLength`), or when the
// oldest has waited LOG_FLUSH_MS. Each write is a trip through libuv's thread pool, dearer than
// the bytes it carries: under load the batch fills well within LOG_FLUSH_MS, so its size sets how
// many trips a second the log costs. One write may carry a whole batch and the lines that came
// while the last was under way (sonic-boom's `maxWrite`, which must stay above `minLength`).
const LOG_BATCH_BYTES = 64 * 1024
const LOG_WRITE_BYTES = 2 * LOG_BATCH_BYTES

/**
 * stdout, written asynchronously (a log line never waits on the terminal or the pipe) by pino's
 * own destination, sonic-boom, in its buffer mode, each line handed over as bytes: in its default
 * text mode it measures the UTF-8 length of all the text it holds on every write, which copies
 * that text each time. Lines are handed to the system together (a few kilobytes, or whatever
 * waited `LOG_FLUSH_MS`), batched as a group commit is: one write per line would be a trip
 * through libuv's thread pool each (docs/performance.md has what each cost).
 *
 * A reader can fail to take the bytes in two ways, and neither may hold the process or its stop:
 * - not now (EAGAIN: the reader stalls, the pipe is full): at most `bufferBytes` wait; lines
 *   beyond are dropped and counted, and one warning says how many once writing resumes: load
 *   shedding, as the log applies no backpressure to requests, and a stalled reader must not grow
 *   the process without bound.
 * - never (any other error: EPIPE once the reader has gone, or was gone at the start; EIO,
 *   ENOSPC): nothing more is written, every later line is dropped and counted. Retried, each
 *   line would pay for a write that cannot succeed; unheard, the error would end the process.
 * As the process exits, what waits is written for at most `EXIT_FLUSH_MS`, and given up at the
 * first error that is not EAGAIN (sonic-boom 5's `flushSync` throws it; 4 retries it for ever,
 * hence the override in package.json). That flush runs synchronously in the exit handler, where no
 * timer and no second signal can interrupt it: only its own bound ends it. Both bounds are read on
 * `clock`.
 */
export const asyncStdout = (bufferBytes: number, clock: Clock = systemClock): StdoutLog => {
  let exitDeadline: number | undefined
  let gone = false
  // Registered before pino's own exit flush (which the destination registers), so it runs first.
  process.once('exit', () => {
    if (gone) return
    exitDeadline = clock.now() + EXIT_FLUSH_MS
    try {
      stream.flushSync()
    } catch {
      // What could not be written in time is given up; pino's flush then has nothing to do.
      stream.destroy()
    }
  })
  const stream = pino.destination({
    sync: false,
    contentMode: 'buffer',
    minLength: Math.min(LOG_BATCH_BYTES, bufferBytes),
    maxWrite: LOG_WRITE_BYTES,
    maxLength: bufferBytes,
    retryEAGAIN: () => exitDeadline === undefined || clock.now() < exitDeadline,
  }) as unknown as SonicBoomStream
  // Every error sonic-boom reports is a write that will not succeed (EAGAIN is retried, not
  // reported, until the exit deadline). pino swallows EPIPE and passes on any other.
  stream.on('error', () => {
    gone = true
  })
  let dropped = 0
  let unreported = 0
  // Bytes handed to the destination and not yet written, kept from its documented events.
  let waiting = 0
  let listener: (count: number) => void = () => undefined
  stream.on('drop', (bytes) => {
    waiting -= bytes.length
    dropped += 1
    unreported += 1
  })
  stream.on('write', (written) => {
    waiting = Math.max(0, waiting - written)
    // Caught up: what waits is back under half the buffer, so the warning has room and is not one
    // of many while the reader crawls.
    if (unreported === 0 || waiting > bufferBytes / 2) return
    const count = unreported
    unreported = 0
    listener(count)
  })
  // The exit handler writes what waits: a pending flush need not hold the process up, and the
  // clock's timers do not.
  const flushSoon = flushWhileWaiting(clock, LOG_FLUSH_MS, { waiting: () => (gone ? 0 : waiting), flush: () => stream.flush() })
  return {
    write: (line: string) => {
      if (gone) {
        dropped += 1
        return
      }
      const bytes = Buffer.from(line, 'utf8')
      waiting += bytes.length
      stream.write(bytes)
      flushSoon()
    },
    dropped: () => dropped,
    onCaughtUp: (next) => {
      listener = next
    },
  }
}

/**
 * The log's flush policy: a line handed to the destination is asked to be written within `flushMs`
 * whether or not other lines come to share its write, and again every `flushMs` while lines still
 * wait; while none waits, no timer is set. Call the answer after each line.
 *
 * One timer while lines wait, set by the first of them. It stays set until nothing waits: a flush
 * asked while a write is under way writes nothing, and what is left below minLength when that
 * write ends would wait for the next line, which may not come. sonic-boom's own `periodicFlush`
 * is not used: it flushes on an interval of its own timers whether or not a line waits (each an
 * empty write through libuv's thread pool while the service is idle), and no test can move them.
 */
export const flushWhileWaiting = (
  clock: Clock,
  flushMs: number,
  destination: { readonly waiting: () => number; readonly flush: () => void },
): (() => void) => {
  let pending: Cancel | undefined
  const flushSoon = (): void => {
    if (pending !== undefined || destination.waiting() === 0) return
    pending = clock.setTimer(flushMs, () => {
      pending = undefined
      if (destination.waiting() === 0) return
      destination.flush()
      flushSoon()
    })
  }
  return flushSoon
}

// The parts of sonic-boom this module uses, all of them its documented API; pino types its
// destination as a plain stream.
interface SonicBoomStream {
  readonly write: (bytes: Buffer) => boolean
  readonly flushSync: () => void
  /** Writes what waits, below `minLength` too. */
  readonly flush: () => void
  readonly destroy: () => void
  readonly on: {
    (event: 'error', listener: () => void): void
    /** A line refused because `maxLength` bytes already wait. */
    (event: 'drop', listener: (bytes: Buffer) => void): void
    /** Bytes written by one write. */
    (event: 'write', listener: (written: number) => void): void
  }
}

/**
 * The service's pino logger: one JSON object per line with `level` as a word, an ISO `time` and
 * `msg`, written to the destination (the service's is `asyncStdout`).
 */
export const makePino = (level: LogLevel, destination: DestinationStream): Pino =>
  pino(
    {
      level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    },
    destination,
  )

/**
 * Where the service says what an operator must see whatever LOG_LEVEL filters out (where it
 * listens, with PORT=0 the only place that says so): an info line at every level but `silent`.
 */
export const announcerOf = (log: Pino, level: LogLevel): Logger['info'] => {
  if (level === 'silent') return () => {}
  const always = log.child({}, { level: 'info' })
  return (message, fields) => (fields === undefined ? always.info(message) : always.info(fields, message))
}

/** The HTTP adapter's logger port, written through pino. */
export const asLoggerPort = (log: Pino): Logger => ({
  info: (message, fields) => (fields === undefined ? log.info(message) : log.info(fields, message)),
  warn: (message, fields) => (fields === undefined ? log.warn(message) : log.warn(fields, message)),
  error: (message, fields) => (fields === undefined ? log.error(message) : log.error(fields, message)),
})
