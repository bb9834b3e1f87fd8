import * as t from 'io-ts'
import { isLiteralBasePath } from '../../adapters/http/index.js'
import { BearerToken } from '../../core/index.js'

// Codecs from one environment variable's text to a typed setting. An unset or empty variable is
// `undefined`: deployment tools often set a variable to '' to mean "not set".

type Setting<A> = t.Type<A, string | undefined, unknown>

const setting = <A>(name: string, expected: string, parse: (text: string) => A | undefined): t.Type<A | undefined, string | undefined, unknown> =>
  new t.Type<A | undefined, string | undefined, unknown>(
    name,
    (_u): _u is A | undefined => true,
    (u, c) => {
      if (u === undefined || u === '') return t.success(undefined)
      const parsed = typeof u === 'string' ? parse(u) : undefined
      return parsed === undefined ? t.failure(u, c, expected) : t.success(parsed)
    },
    (a) => (a === undefined ? undefined : String(a)),
  )

/** A setting that falls back to a default when the variable is unset or empty. */
export const withDefault = <A>(codec: t.Type<A | undefined, string | undefined, unknown>, fallback: A): Setting<A> =>
  new t.Type<A, string | undefined, unknown>(
    codec.name,
    (u): u is A => codec.is(u) && u !== undefined,
    (u, c) => {
      const decoded = codec.validate(u, c)
      return decoded._tag === 'Right' && decoded.right === undefined ? t.success(fallback) : (decoded as t.Validation<A>)
    },
    (a) => codec.encode(a),
  )

export const Port = setting('Port', 'a port number from 0 to 65535 (0 picks a free port)', (text) => {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN
  return port <= 65535 ? port : undefined
})

export const Host = setting('Host', 'a host name or IP address to listen on, without spaces', (text) =>
  /^[^\s/]+$/.test(text) ? text : undefined,
)

export const BasePath = setting(
  'BasePath',
  "a path prefix such as /api/v1: segments of A-Z a-z 0-9 - . _ ~, each after a '/', no trailing '/'",
  (text) => (isLiteralBasePath(text) ? text : undefined),
)

const MIN_TOKEN_LENGTH = 16

export const BearerTokens = setting(
  'BearerTokens',
  `a comma-separated list of tokens, each at least ${MIN_TOKEN_LENGTH} characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750 token68)`,
  (text): ReadonlyArray<BearerToken> | undefined => {
    const tokens = text.split(',').map((token) => token.trim())
    const accepted = tokens.filter((token): token is BearerToken => token.length >= MIN_TOKEN_LENGTH && BearerToken.is(token))
    return accepted.length === tokens.length ? accepted : undefined
  },
)

export const MongoUri = setting(
  'MongoUri',
  'a MongoDB connection string starting with mongodb:// or mongodb+srv://',
  (text) => (/^mongodb(\+srv)?:\/\/[^\s]+$/.test(text) ? text : undefined),
)

// MongoDB's rules for database names: no / \ . " $ * < > : | ? space or NUL, at most 63 bytes.
export const MongoDbName = setting(
  'MongoDbName',
  'a MongoDB database name: at most 63 bytes, none of / \\ . " $ * < > : | ? or spaces',
  (text) => (/^[^/\\. "$*<>:|?\0]+$/.test(text) && Buffer.byteLength(text) <= 63 ? text : undefined),
)

export const Milliseconds = setting('Milliseconds', 'a whole number of milliseconds from 100 to 600000', (text) => {
  const ms = /^\d{1,6}$/.test(text) ? Number(text) : NaN
  return ms >= 100 && ms <= 600_000 ? ms : undefined
})

const UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2 }
const MAX_BODY_LIMIT = 16 * 1024 ** 2

export const ByteSize = setting(
  'ByteSize',
  'a size from 1 byte to 16 MiB, in bytes or with a unit: 65536, 64kb, 64KiB, 1mb',
  (text) => {
    const match = /^(\d+)\s*([a-z]*)$/i.exec(text.trim())
    const unit = UNITS[match?.[2]?.toLowerCase() ?? 'none']
    const bytes = match?.[1] !== undefined && unit !== undefined ? Number(match[1]) * unit : NaN
    return bytes >= 1 && bytes <= MAX_BODY_LIMIT ? bytes : undefined
  },
)

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export const LogLevel = setting('LogLevel', `one of ${LOG_LEVELS.join(', ')}`, (text): LogLevel | undefined =>
  LOG_LEVELS.find((level) => level === text.toLowerCase()),
)
