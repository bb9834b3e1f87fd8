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
 * The service's pino logger: one JSON object per line with `level` as a word, an ISO `time` and
 * `msg`, written asynchronously (a log line never waits on the terminal or the pipe) to the
 * destination, by default stdout. pino flushes what is buffered when the process exits.
 */
export const makePino = (level: LogLevel, destination: DestinationStream = pino.destination({ sync: false })): Pino =>
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

/** The HTTP adapter's logger port, written through pino. */
export const asLoggerPort = (log: Pino): Logger => ({
  info: (message, fields) => (fields === undefined ? log.info(message) : log.info(fields, message)),
  warn: (message, fields) => (fields === undefined ? log.warn(message) : log.warn(fields, message)),
  error: (message, fields) => (fields === undefined ? log.error(message) : log.error(fields, message)),
})
