import { sequenceS } from 'fp-ts/lib/Apply.js'
import * as E from 'fp-ts/lib/Either.js'
import * as RA from 'fp-ts/lib/ReadonlyArray.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as t from 'io-ts'
import { parseJwtConfig, type JwtAuthenticatorOptions } from '../../adapters/jwt/index.js'
import { toViolations, type BearerToken } from '../../core/index.js'
import { DEFAULT_IN_MEMORY_LIMITS, type InMemoryLimits } from '../../adapters/in-memory/index.js'
import {
  BasePath,
  BearerTokens,
  ByteSize,
  Host,
  MemorySize,
  Milliseconds,
  MongoDbName,
  MongoUri,
  PlantCount,
  Port,
  withDefault,
} from './env-codecs.js'

/** Where plants are kept: process memory, or a MongoDB deployment. */
export type StorageConfig =
  | { readonly _tag: 'InMemory'; readonly limits: InMemoryLimits }
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
  IN_MEMORY_MAX_PLANTS: withDefault(PlantCount, DEFAULT_IN_MEMORY_LIMITS.maxPlants),
  IN_MEMORY_MAX_BYTES: withDefault(MemorySize, DEFAULT_IN_MEMORY_LIMITS.maxBytes),
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
          ? {
              _tag: 'InMemory' as const,
              limits: { maxPlants: vars.IN_MEMORY_MAX_PLANTS, maxBytes: vars.IN_MEMORY_MAX_BYTES },
            }
          : { _tag: 'MongoDb' as const, uri: vars.MONGODB_URI, dbName: vars.MONGODB_DB, timeoutMs: vars.MONGODB_TIMEOUT_MS },
      bodyLimitBytes: vars.BODY_LIMIT,
    })),
  )
