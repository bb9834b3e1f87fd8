import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as t from 'io-ts'
import { isDeepStrictEqual } from 'node:util'
import { isLiteralBasePath } from '../../adapters/http/index.js'
import { BearerToken, toViolations } from '../../core/index.js'

// Codecs from one environment variable's text to a typed setting. An unset or empty variable is
// `undefined`: deployment tools often set a variable to '' to mean "not set".

/** What `--help` says of a variable. */
export interface SettingHelp {
  /** What a value must be, as a refusal says it. */
  readonly expected: string
  /** The text of the value taken when the variable is unset or empty, if any. */
  readonly fallback: string | undefined
}

/**
 * A variable's codec that can say what it reads: `--help` prints `expected` and, when there is
 * one, the text of `fallback`, so the help cannot drift from what the configuration decodes.
 */
export class Setting<A> extends t.Type<A, string | undefined, unknown> implements SettingHelp {
  constructor(
    name: string,
    is: t.Is<A>,
    validate: t.Validate<unknown, A>,
    encode: t.Encode<A, string | undefined>,
    readonly expected: string,
    readonly fallback: string | undefined = undefined,
  ) {
    super(name, is, validate, encode)
  }
}

/**
 * A codec for one variable: `parse` answers the setting, or `undefined` when the text is not one;
 * `is` tells a setting's value from anything else; `format` writes it back as text `parse` reads.
 */
export const setting = <A>(
  name: string,
  expected: string,
  parse: (text: string) => A | undefined,
  is: (u: unknown) => u is A,
  format: (a: A) => string = String,
): Setting<A | undefined> =>
  explainedSetting(
    name,
    expected,
    (text) => {
      const parsed = parse(text)
      return parsed === undefined ? E.left(expected) : E.right(parsed)
    },
    is,
    format,
  )

/**
 * A setting whose refusal depends on the text: `parse` answers the value or what was expected of
 * this text; `expected` says it in general, for `--help`.
 */
export const explainedSetting = <A>(
  name: string,
  expected: string,
  parse: (text: string) => E.Either<string, A>,
  is: (u: unknown) => u is A,
  show: (a: A) => string,
): Setting<A | undefined> =>
  new Setting<A | undefined>(
    name,
    (u): u is A | undefined => u === undefined || is(u),
    (u, c) => {
      if (u === undefined || u === '') return t.success(undefined)
      const parsed = typeof u === 'string' ? parse(u) : E.left(expected)
      return E.isLeft(parsed) ? t.failure(u, c, parsed.left) : t.success(parsed.right)
    },
    (a) => (a === undefined ? undefined : show(a)),
    expected,
  )

/** A number setting's guard: a number its own text parses back to. */
export const numberFrom =
  (parse: (text: string) => number | undefined) =>
  (u: unknown): u is number =>
    typeof u === 'number' && parse(String(u)) === u

/** A text setting's guard: text its parser keeps as it is. */
export const textFrom =
  <A extends string>(parse: (text: string) => A | undefined) =>
  (u: unknown): u is A =>
    typeof u === 'string' && parse(u) === u

/** A list setting's guard: texts that, joined by commas, parse back to the same list. */
export const listFrom =
  <A extends string>(parse: (text: string) => ReadonlyArray<A> | undefined) =>
  (u: unknown): u is ReadonlyArray<A> =>
    Array.isArray(u) && u.every((entry) => typeof entry === 'string') && isDeepStrictEqual(parse(u.join(',')), u)

/** A setting that falls back to a default when the variable is unset or empty. */
export const withDefault = <A>(codec: Setting<A | undefined>, fallback: A): Setting<A> =>
  new Setting<A>(
    codec.name,
    (u): u is A => codec.is(u) && u !== undefined,
    (u, c) => {
      const decoded = codec.validate(u, c)
      return decoded._tag === 'Right' && decoded.right === undefined ? t.success(fallback) : (decoded as t.Validation<A>)
    },
    (a) => codec.encode(a),
    codec.expected,
    codec.encode(fallback),
  )

/**
 * A setting whose default the configuration works out from other settings: it decodes as `codec`
 * does (`undefined` when unset), and `--help` states the default in words, `fallback`.
 */
export const withStatedDefault = <A>(codec: Setting<A | undefined>, fallback: string): Setting<A | undefined> =>
  new Setting<A | undefined>(codec.name, codec.is, codec.validate, codec.encode, codec.expected, fallback)

const parsePort = (text: string): number | undefined => {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN
  return port <= 65535 ? port : undefined
}

export const Port = setting('Port', 'a port number from 0 to 65535 (0 picks a free port)', parsePort, numberFrom(parsePort))

const parseHost = (text: string): string | undefined => (/^[^\s/]+$/.test(text) ? text : undefined)

export const Host = setting('Host', 'a host name or IP address to listen on, without spaces', parseHost, textFrom(parseHost))

const parseBasePath = (text: string): string | undefined => (isLiteralBasePath(text) ? text : undefined)

export const BasePath = setting(
  'BasePath',
  "a path prefix such as /api/v1: segments of A-Z a-z 0-9 - . _ ~, each after a '/', no trailing '/'",
  parseBasePath,
  textFrom(parseBasePath),
)

const MIN_TOKEN_LENGTH = 16

const parseBearerTokens = (text: string): ReadonlyArray<BearerToken> | undefined => {
  const tokens = text.split(',').map((token) => token.trim())
  const accepted = tokens.filter((token): token is BearerToken => token.length >= MIN_TOKEN_LENGTH && BearerToken.is(token))
  return accepted.length === tokens.length ? accepted : undefined
}

export const BearerTokens = setting(
  'BearerTokens',
  `a comma-separated list of tokens, each at least ${MIN_TOKEN_LENGTH} characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750 token68)`,
  parseBearerTokens,
  listFrom(parseBearerTokens),
)

// A browser's Origin: a scheme (http or https), a host and a port when not the scheme's default,
// written as the browser writes it, so it compares exactly.
const isOrigin = (text: string): boolean => {
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text
  } catch {
    return false
  }
}

const parseOrigins = (text: string): ReadonlyArray<string> | undefined => {
  const origins = text.split(',').map((origin) => origin.trim())
  return origins.every(isOrigin) ? origins : undefined
}

export const Origins = setting(
  'Origins',
  'a comma-separated list of exact origins such as https://app.example.com or http://localhost:5173 (scheme, host and port; no path, no trailing slash, no wildcard)',
  parseOrigins,
  listFrom(parseOrigins),
)

const parseMongoUri = (text: string): string | undefined => (/^mongodb(\+srv)?:\/\/[^\s]+$/.test(text) ? text : undefined)

export const MongoUri = setting(
  'MongoUri',
  'a MongoDB connection string starting with mongodb:// or mongodb+srv://',
  parseMongoUri,
  textFrom(parseMongoUri),
)

// MongoDB's rules for database names: no / \ . " $ * < > : | ? space or NUL, at most 63 bytes.
const parseMongoDbName = (text: string): string | undefined =>
  /^[^/\\. "$*<>:|?\0]+$/.test(text) && Buffer.byteLength(text) <= 63 ? text : undefined

export const MongoDbName = setting(
  'MongoDbName',
  'a MongoDB database name: at most 63 bytes, none of / \\ . " $ * < > : | ? or spaces',
  parseMongoDbName,
  textFrom(parseMongoDbName),
)

// A whole number from `min` to `max`, written in digits only.
const wholeNumber = (name: string, min: number, max: number, expected: string) => {
  const parse = (text: string): number | undefined => {
    const value = /^\d{1,10}$/.test(text) ? Number(text) : NaN
    return value >= min && value <= max ? value : undefined
  }
  return setting(name, expected, parse, numberFrom(parse))
}

export const Milliseconds = wholeNumber('Milliseconds', 100, 600_000, 'a whole number of milliseconds from 100 to 600000')

/** A wait that may be skipped: 0 is allowed. */
export const DelayMilliseconds = wholeNumber('DelayMilliseconds', 0, 600_000, 'a whole number of milliseconds from 0 to 600000')

export const ConnectionCount = wholeNumber('ConnectionCount', 1, 1_000_000, 'a whole number of connections from 1 to 1000000')

const UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  kb: 1024,
  kib: 1024,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
}
const MAX_BODY_LIMIT = 16 * 1024 ** 2

// A number of bytes, bare or with a unit, from `min` to `max`.
const bytesFrom =
  (min: number, max: number) =>
  (text: string): number | undefined => {
    const match = /^(\d+)\s*([a-z]*)$/i.exec(text.trim())
    const unit = UNITS[match?.[2]?.toLowerCase() ?? 'none']
    const bytes = match?.[1] !== undefined && unit !== undefined ? Number(match[1]) * unit : NaN
    return bytes >= min && bytes <= max ? bytes : undefined
  }

export const ByteSize = setting(
  'ByteSize',
  'a size from 1 byte to 16 MiB, in bytes or with a unit: 65536, 64kb, 64KiB, 1mb',
  bytesFrom(1, MAX_BODY_LIMIT),
  numberFrom(bytesFrom(1, MAX_BODY_LIMIT)),
)

export const PlantCount = wholeNumber('PlantCount', 1, 1_000_000_000, 'a whole number of plants from 1 to 1000000000')

/**
 * Decodes variables with a codec of their settings; every bad variable is reported, each message
 * naming the variable and what it expects. Values are not repeated, as some are secrets.
 */
export const decodeEnvironment = <A>(
  codec: t.Decoder<unknown, A>,
  env: Readonly<Record<string, string | undefined>>,
): E.Either<ReadonlyArray<string>, A> =>
  pipe(
    codec.decode(env),
    E.mapLeft((errors) => toViolations(errors).map(({ path, expected }) => `${path}: expected ${expected}`)),
  )
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export const LogLevel = setting(
  'LogLevel',
  `one of ${LOG_LEVELS.join(', ')}`,
  (text): LogLevel | undefined => LOG_LEVELS.find((level) => level === text.toLowerCase()),
  (u): u is LogLevel => LOG_LEVELS.some((level) => level === u),
)

const NODE_ENVIRONMENTS = ['production', 'development', 'test'] as const
export type NodeEnvironment = (typeof NODE_ENVIRONMENTS)[number]
const NODE_ENVIRONMENTS_EXPECTED = 'production, development or test'

// A name meant for one of them: the same in another case (`Production`), or one's beginning or
// one with something after it (`prod`, `production-eu`).
const meantEnvironment = (text: string): NodeEnvironment | undefined => {
  const lower = text.toLowerCase()
  return NODE_ENVIRONMENTS.find((name) => name === lower || (lower.length >= 3 && (name.startsWith(lower) || lower.startsWith(name))))
}

/**
 * The kind of environment the process runs in: `production` refuses what only suits a trial. Only
 * the three names are read, exactly as written: any other (`Production`, `prod`) would run as
 * development where production was meant, so it is refused, with the name it probably stands for.
 */
export const NodeEnvironment = explainedSetting(
  'NodeEnvironment',
  NODE_ENVIRONMENTS_EXPECTED,
  (text): E.Either<string, NodeEnvironment> => {
    const known = NODE_ENVIRONMENTS.find((name) => name === text)
    if (known !== undefined) return E.right(known)
    const meant = meantEnvironment(text)
    return E.left(`${NODE_ENVIRONMENTS_EXPECTED}, exactly as written${meant === undefined ? '' : ` (${meant}, probably)`}`)
  },
  (u): u is NodeEnvironment => NODE_ENVIRONMENTS.some((name) => name === u),
  String,
)

/** A switch: `on` or `off`. */
export const OnOff = setting(
  'OnOff',
  'on or off',
  (text): boolean | undefined => (text === 'on' ? true : text === 'off' ? false : undefined),
  (u): u is boolean => typeof u === 'boolean',
  (on) => (on ? 'on' : 'off'),
)
