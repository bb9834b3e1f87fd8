import { sequenceS } from 'fp-ts/lib/Apply.js'
import * as E from 'fp-ts/lib/Either.js'
import * as RA from 'fp-ts/lib/ReadonlyArray.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as t from 'io-ts'
import {
  DEFAULT_HTTP_SERVER_LIMITS,
  DEFAULT_JSON_LIMITS,
  type HttpServerLimits,
  type JsonLimits,
} from '../../adapters/http/index.js'
import { DEFAULT_IN_MEMORY_LIMITS, type InMemoryLimits } from '../../adapters/in-memory/index.js'
import type { JwtAuthenticatorOptions } from '../../adapters/jwt/index.js'
import { DEFAULT_MONGO_TIMEOUTS, MAX_PLANT_BODY_BYTES, type MongoPlantStoreSettings } from '../../adapters/mongodb/index.js'
import type { BearerToken } from '../../core/index.js'
import {
  BasePath,
  BearerTokens,
  ByteSize,
  ConnectionCount,
  decodeEnvironment,
  DelayMilliseconds,
  Host,
  LogLevel,
  Milliseconds,
  MongoDbName,
  MongoUri,
  NodeEnvironment,
  OnOff,
  Origins,
  PlantCount,
  Port,
  withDefault,
  withStatedDefault,
  type SettingHelp,
} from './env-codecs.js'
import { JWT_SETTINGS, parseJwtConfig } from './jwt-config.js'
import { productionRefusals } from './production-guard.js'

/** Where plants are kept: process memory, or a MongoDB deployment. */
export type StorageConfig =
  | { readonly _tag: 'InMemory'; readonly limits: InMemoryLimits }
  | { readonly _tag: 'MongoDb'; readonly settings: MongoPlantStoreSettings }

/** The service's settings, parsed from the environment. */
export interface ServiceConfig {
  readonly port: number
  readonly host: string
  readonly basePath: string
  /** The accepted static tokens; `undefined` when none are configured. */
  readonly tokens: ReadonlyArray<BearerToken> | undefined
  /** How JWT access tokens are checked; `undefined` when no JWT_ variable is set. */
  readonly jwt: JwtAuthenticatorOptions | undefined
  readonly storage: StorageConfig
  readonly bodyLimitBytes: number
  readonly jsonLimits: JsonLimits
  readonly serverLimits: HttpServerLimits
  readonly shutdown: ShutdownConfig
  readonly logLevel: LogLevel
  /** The most log bytes waiting for stdout's reader; lines beyond are dropped and counted. */
  readonly logBufferBytes: number
  /** Whether `/docs` serves the API reference page. */
  readonly docsPage: boolean
  /** The origins whose browser pages may call the API (CORS); `undefined` when CORS_ORIGINS is unset (no CORS). */
  readonly corsOrigins: ReadonlyArray<string> | undefined
  /** Where Prometheus metrics are served; `undefined` when METRICS_PORT is unset (no metrics). */
  readonly metrics: { readonly port: number; readonly host: string } | undefined
}

/** How the service stops on a signal. */
export interface ShutdownConfig {
  /** How long it keeps serving, `/readyz` answering 503, before it stops accepting connections. */
  readonly drainMs: number
  /** How long requests still running after that may take before their connections are cut. */
  readonly graceMs: number
}

// The service's own defaults; the adapters' limits take the adapters' defaults.
const DEFAULT_GRACE_MS = 10_000
const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024
/**
 * The most log bytes waiting for stdout's reader: a bound against a stalled reader, not a tuning
 * knob, so a constant (an embedder passes its own to `asyncStdout`).
 */
export const LOG_BUFFER_BYTES = 16 * 1024 * 1024

/**
 * The in-memory store's byte bound follows its plant bound, so an operator sets one number: the
 * adapter's default bytes per default plant (64 MiB for 100,000 plants, about 671 bytes a plant:
 * room for some 250 characters of name and tag in each, at the estimate's 2 bytes a character).
 */
export const inMemoryLimitsFor = (maxPlants: number): InMemoryLimits => ({
  maxPlants,
  maxBytes: Math.ceil((maxPlants * DEFAULT_IN_MEMORY_LIMITS.maxBytes) / DEFAULT_IN_MEMORY_LIMITS.maxPlants),
})

const Environment = t.type({
  NODE_ENV: withDefault(NodeEnvironment, 'development'),
  ALLOW_IN_MEMORY_STORAGE: withDefault(OnOff, false),
  ALLOW_GENERATED_TOKEN: withDefault(OnOff, false),
  PORT: withDefault(Port, 3000),
  HOST: withDefault(Host, '127.0.0.1'),
  BASE_PATH: withDefault(BasePath, ''),
  CORS_ORIGINS: Origins,
  DOCS_PAGE: withDefault(OnOff, true),
  PLANT_STORE_TOKENS: BearerTokens,
  MONGODB_URI: MongoUri,
  MONGODB_DB: withDefault(MongoDbName, 'plant_store'),
  MONGODB_TIMEOUT_MS: withDefault(Milliseconds, DEFAULT_MONGO_TIMEOUTS.operationMs),
  BODY_LIMIT: withDefault(ByteSize, DEFAULT_BODY_LIMIT_BYTES),
  HEADERS_TIMEOUT_MS: withDefault(Milliseconds, DEFAULT_HTTP_SERVER_LIMITS.headersTimeoutMs),
  REQUEST_TIMEOUT_MS: withDefault(Milliseconds, DEFAULT_HTTP_SERVER_LIMITS.requestTimeoutMs),
  KEEP_ALIVE_TIMEOUT_MS: withDefault(Milliseconds, DEFAULT_HTTP_SERVER_LIMITS.keepAliveTimeoutMs),
  MAX_CONNECTIONS: withDefault(ConnectionCount, DEFAULT_HTTP_SERVER_LIMITS.maxConnections),
  MAX_CONNECTIONS_PER_ADDRESS: withDefault(ConnectionCount, DEFAULT_HTTP_SERVER_LIMITS.maxConnectionsPerAddress),
  SHUTDOWN_DRAIN_MS: withDefault(DelayMilliseconds, 5_000),
  SHUTDOWN_GRACE_MS: withStatedDefault(Milliseconds, `${DEFAULT_GRACE_MS} (MONGODB_TIMEOUT_MS with MONGODB_URI, when longer)`),
  IN_MEMORY_MAX_PLANTS: withDefault(PlantCount, DEFAULT_IN_MEMORY_LIMITS.maxPlants),
  LOG_LEVEL: withDefault(LogLevel, 'info'),
  METRICS_PORT: Port,
  METRICS_HOST: withDefault(Host, '127.0.0.1'),
})

type Variables = t.TypeOf<typeof Environment>

/** Every variable the service reads, with what `--help` says of it: the one list of them. */
export const SERVICE_SETTINGS: Readonly<Record<string, SettingHelp>> = { ...Environment.props, ...JWT_SETTINGS }

/** Every variable the service reads. */
export const SERVICE_VARIABLES: ReadonlyArray<string> = Object.keys(SERVICE_SETTINGS)

/**
 * Variables earlier versions read and this one does not: the limits they set protect nothing an
 * operator tunes (a NewPlant nests one level deep and its longest valid number is 20 characters;
 * the in-memory byte bound follows IN_MEMORY_MAX_PLANTS; the log buffer only bounds a stalled
 * reader), so they are constants now, options only for an embedder of the adapters.
 */
export const RETIRED_VARIABLES: ReadonlyArray<string> = ['JSON_NUMBER_LIMIT', 'JSON_DEPTH_LIMIT', 'IN_MEMORY_MAX_BYTES', 'LOG_BUFFER_LIMIT']

// Rules that tie one variable to another, each message naming the variable to change.
const checkRelations = (vars: Variables): E.Either<ReadonlyArray<string>, Variables> => {
  const problems = [
    ...(vars.HEADERS_TIMEOUT_MS > vars.REQUEST_TIMEOUT_MS
      ? [`REQUEST_TIMEOUT_MS: expected at least HEADERS_TIMEOUT_MS (${vars.HEADERS_TIMEOUT_MS}): the whole request includes its headers`]
      : []),
    ...(vars.MONGODB_URI !== undefined && vars.BODY_LIMIT > MAX_PLANT_BODY_BYTES
      ? [
          `BODY_LIMIT: expected at most ${MAX_PLANT_BODY_BYTES} bytes (16 MiB less 1 KiB) with MONGODB_URI: a larger plant would make a document over MongoDB's 16 MiB limit`,
        ]
      : []),
    // The storage deadline bounds a request only where there is MongoDB to wait for.
    ...(vars.MONGODB_URI !== undefined && vars.SHUTDOWN_GRACE_MS !== undefined && vars.SHUTDOWN_GRACE_MS < vars.MONGODB_TIMEOUT_MS
      ? [
          `SHUTDOWN_GRACE_MS: expected at least MONGODB_TIMEOUT_MS (${vars.MONGODB_TIMEOUT_MS}): a request must be able to finish its storage call before it is cut`,
        ]
      : []),
  ]
  return problems.length === 0 ? E.right(vars) : E.left(problems)
}

/**
 * Reads the configuration from environment variables. Every bad variable is reported, each
 * message naming the variable and what it expects; values are not repeated, as some are secrets.
 */
export const loadConfig = (env: Readonly<Record<string, string | undefined>>): E.Either<ReadonlyArray<string>, ServiceConfig> =>
  pipe(
    sequenceS(E.getApplicativeValidation(RA.getSemigroup<string>()))({
      vars: pipe(decodeEnvironment(Environment, env), E.flatMap(checkRelations)),
      jwt: parseJwtConfig(env),
    }),
    E.flatMap((parsed) => {
      const refused = productionRefusals({
        production: parsed.vars.NODE_ENV === 'production',
        inMemoryStorage: parsed.vars.MONGODB_URI === undefined,
        generatedToken: parsed.vars.PLANT_STORE_TOKENS === undefined && parsed.jwt === undefined,
        allowInMemoryStorage: parsed.vars.ALLOW_IN_MEMORY_STORAGE,
        allowGeneratedToken: parsed.vars.ALLOW_GENERATED_TOKEN,
      })
      return refused.length === 0 ? E.right(parsed) : E.left(refused)
    }),
    E.map(({ vars, jwt }) => ({
      port: vars.PORT,
      host: vars.HOST,
      basePath: vars.BASE_PATH,
      corsOrigins: vars.CORS_ORIGINS,
      docsPage: vars.DOCS_PAGE,
      tokens: vars.PLANT_STORE_TOKENS,
      jwt,
      storage:
        vars.MONGODB_URI === undefined
          ? { _tag: 'InMemory' as const, limits: inMemoryLimitsFor(vars.IN_MEMORY_MAX_PLANTS) }
          : {
              _tag: 'MongoDb' as const,
              settings: { uri: vars.MONGODB_URI, dbName: vars.MONGODB_DB, timeouts: { operationMs: vars.MONGODB_TIMEOUT_MS } },
            },
      bodyLimitBytes: vars.BODY_LIMIT,
      jsonLimits: DEFAULT_JSON_LIMITS,
      serverLimits: {
        headersTimeoutMs: vars.HEADERS_TIMEOUT_MS,
        requestTimeoutMs: vars.REQUEST_TIMEOUT_MS,
        keepAliveTimeoutMs: vars.KEEP_ALIVE_TIMEOUT_MS,
        maxConnections: vars.MAX_CONNECTIONS,
        maxConnectionsPerAddress: vars.MAX_CONNECTIONS_PER_ADDRESS,
      },
      shutdown: {
        drainMs: vars.SHUTDOWN_DRAIN_MS,
        graceMs: vars.SHUTDOWN_GRACE_MS ?? (vars.MONGODB_URI === undefined ? DEFAULT_GRACE_MS : Math.max(DEFAULT_GRACE_MS, vars.MONGODB_TIMEOUT_MS)),
      },
      logLevel: vars.LOG_LEVEL,
      logBufferBytes: LOG_BUFFER_BYTES,
      metrics: vars.METRICS_PORT === undefined ? undefined : { port: vars.METRICS_PORT, host: vars.METRICS_HOST },
    })),
  )
