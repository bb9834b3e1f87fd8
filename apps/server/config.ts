import { sequenceS } from 'fp-ts/lib/Apply.js'
import * as E from 'fp-ts/lib/Either.js'
import * as RA from 'fp-ts/lib/ReadonlyArray.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as t from 'io-ts'
import { parseJwtConfig, type JwtAuthenticatorOptions } from '../../adapters/jwt/index.js'
import { toViolations, type BearerToken } from '../../core/index.js'
import {
  BasePath,
  BearerTokens,
  ByteSize,
  Host,
  LogLevel,
  Milliseconds,
  MongoDbName,
  MongoUri,
  Port,
  withDefault,
} from './env-codecs.js'

/** Where plants are kept: process memory, or a MongoDB deployment. */
export type StorageConfig =
  | { readonly _tag: 'InMemory' }
  | { readonly _tag: 'MongoDb'; readonly uri: string; readonly dbName: string; readonly timeoutMs: number }

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
  readonly logLevel: LogLevel
  /** Where Prometheus metrics are served; `undefined` when METRICS_PORT is unset (no metrics). */
  readonly metrics: { readonly port: number; readonly host: string } | undefined
}

const Environment = t.type({
  PORT: withDefault(Port, 3000),
  HOST: withDefault(Host, '127.0.0.1'),
  BASE_PATH: withDefault(BasePath, ''),
  PLANT_STORE_TOKENS: BearerTokens,
  MONGODB_URI: MongoUri,
  MONGODB_DB: withDefault(MongoDbName, 'plant_store'),
  MONGODB_TIMEOUT_MS: withDefault(Milliseconds, 5000),
  BODY_LIMIT: withDefault(ByteSize, 64 * 1024),
  LOG_LEVEL: withDefault(LogLevel, 'info'),
  METRICS_PORT: Port,
  METRICS_HOST: withDefault(Host, '127.0.0.1'),
})

/**
 * Reads the configuration from environment variables. Every bad variable is reported, each
 * message naming the variable and what it expects; values are not repeated, as some are secrets.
 */
export const loadConfig = (env: Readonly<Record<string, string | undefined>>): E.Either<ReadonlyArray<string>, ServiceConfig> =>
  pipe(
    sequenceS(E.getApplicativeValidation(RA.getSemigroup<string>()))({
      vars: pipe(
        Environment.decode(env),
        E.mapLeft((errors) => toViolations(errors).map(({ path, expected }) => `${path}: expected ${expected}`)),
      ),
      jwt: parseJwtConfig(env),
    }),
    E.map(({ vars, jwt }) => ({
      port: vars.PORT,
      host: vars.HOST,
      basePath: vars.BASE_PATH,
      tokens: vars.PLANT_STORE_TOKENS,
      jwt,
      storage:
        vars.MONGODB_URI === undefined
          ? { _tag: 'InMemory' as const }
          : { _tag: 'MongoDb' as const, uri: vars.MONGODB_URI, dbName: vars.MONGODB_DB, timeoutMs: vars.MONGODB_TIMEOUT_MS },
      bodyLimitBytes: vars.BODY_LIMIT,
      logLevel: vars.LOG_LEVEL,
      metrics: vars.METRICS_PORT === undefined ? undefined : { port: vars.METRICS_PORT, host: vars.METRICS_HOST },
    })),
  )
