import { pino, type DestinationStream, type Logger as Pino } from 'pino'
import type { Logger } from '../../adapters/http/index.js'
import type { LogLevel } from './env-codecs.js'
import { makeIsoTime } from './iso-time.js'

/**
 * Credentials and cookies, wherever a line might carry them: at the top level, in `headers`, and
 * in `req`/`res` (pino's conventions for a request and a response). pino removes them before a
 * line is written, whatever code logged them; today no line logs a header or a token. Paths are
 * spelled out, not wildcards: a `*.` path costs about 20 us on every line, four times the line.
 */
export const REDACTED_PATHS: ReadonlyArray<string> = ['', 'headers.', 'req.', 'req.headers.', 'res.', 'res.headers.'].flatMap(
  (prefix) =>
    ['authorization', 'Authorization', 'cookie', 'Cookie', '"set-cookie"', '"Set-Cookie"', 'token', 'accessToken', 'password'].map(
      (field) => (field.startsWith('"') ? `${prefix.replace(/\.$/, '')}[${field}]` : `${prefix}${field}`),
    ),
)

/**
 * stdout, written asynchronously (a log line never waits on the terminal or the pipe) by pino's
 * own destination, sonic-boom, which pino flushes synchronously when the process exits. It runs in
 * its buffer mode, each line handed over as bytes: in its default text mode it measures the UTF-8
 * length of all the text it holds on every write, which copies that text each time; under load
 * that was about 4 KB of garbage per request, a sixth of all the service allocated per request.
 */
export const asyncStdout = (): DestinationStream => {
  const stream = pino.destination({ sync: false, contentMode: 'buffer' }) as unknown as { write: (bytes: Buffer) => boolean }
  // `write` is looked up on every line: when stdout's reader is gone (EPIPE), pino replaces it
  // with a no-op.
  return { write: (line: string) => void stream.write(Buffer.from(line, 'utf8')) }
}

/**
 * The service's pino logger: one JSON object per line with `level` as a word, an ISO `time` and
 * `msg`, written to the destination, by default `asyncStdout()`.
 */
export const makePino = (level: LogLevel, destination: DestinationStream = asyncStdout()): Pino =>
  pino(
    {
      level,
      base: null,
      timestamp: makeIsoTime(),
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
