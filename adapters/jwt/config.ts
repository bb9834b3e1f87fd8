import type { KeyObject } from 'node:crypto'
import { sequenceS } from 'fp-ts/lib/Apply.js'
import * as E from 'fp-ts/lib/Either.js'
import * as RA from 'fp-ts/lib/ReadonlyArray.js'
import * as RNEA from 'fp-ts/lib/ReadonlyNonEmptyArray.js'
import { pipe } from 'fp-ts/lib/function.js'
import {
  ASYMMETRIC_ALGORITHMS,
  HMAC_ALGORITHMS,
  minimumSecretBytes,
  type AsymmetricAlgorithm,
  type HmacAlgorithm,
} from './algorithms.js'
import type { JwtAuthenticatorOptions, KeySource } from './options.js'
import { algorithmsForKey, parsePublicKeyPem } from './public-key.js'
import { ScopeToken } from './scope-token.js'

/** The process environment, or any record shaped like it. */
export type JwtEnvironment = Readonly<Record<string, string | undefined>>

type Messages = ReadonlyArray<string>
type Parsed<A> = E.Either<Messages, A>

const KEY_VARIABLES = ['JWT_JWKS_URL', 'JWT_PUBLIC_KEY', 'JWT_SECRET'] as const
type KeyVariable = (typeof KEY_VARIABLES)[number]

const JWT_VARIABLES = [
  ...KEY_VARIABLES,
  'JWT_ISSUER',
  'JWT_AUDIENCE',
  'JWT_ALGORITHMS',
  'JWT_REQUIRED_SCOPE',
  'JWT_CLOCK_TOLERANCE',
  'JWT_JWKS_MAX_FETCHES_PER_MINUTE',
] as const
type JwtVariable = (typeof JWT_VARIABLES)[number]

const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30
const MAXIMUM_CLOCK_TOLERANCE_SECONDS = 300
const MINIMUM_SECRET_BYTES = 32

const validation = E.getApplicativeValidation(RA.getSemigroup<string>())

/**
 * Reads the JWT authentication settings from the environment: `undefined` when no `JWT_`
 * variable is set, the authenticator's options when they are complete and sound, or every
 * problem found, each naming its variable and what it expects. An empty value counts as unset.
 */
export const parseJwtConfig = (env: JwtEnvironment): Parsed<JwtAuthenticatorOptions | undefined> => {
  const read = (name: JwtVariable): string | undefined => (env[name] === '' ? undefined : env[name])
  if (JWT_VARIABLES.every((name) => read(name) === undefined)) return E.right(undefined)
  return pipe(
    sequenceS(validation)({
      keys: keySource(read),
      // Without both, a token the same provider issued for another application, or another
      // tenant of a shared provider, would be accepted here: the signature alone proves only
      // who signed it, not for whom.
      issuer: required('JWT_ISSUER', read('JWT_ISSUER'), 'the "iss" your identity provider puts in its access tokens'),
      audience: required('JWT_AUDIENCE', read('JWT_AUDIENCE'), 'the "aud" that names this service (its API identifier)'),
      requiredScope: optional(read('JWT_REQUIRED_SCOPE'), requiredScope),
      clockToleranceSeconds: clockTolerance(read('JWT_CLOCK_TOLERANCE')),
    }),
    E.map(({ requiredScope, ...options }) => (requiredScope === undefined ? options : { ...options, requiredScope })),
  )
}

const keySource = (read: (name: JwtVariable) => string | undefined): Parsed<KeySource> => {
  const chosen = KEY_VARIABLES.flatMap((name) => {
    const value = read(name)
    return value === undefined ? [] : [{ name, value }]
  })
  const [only, ...others] = chosen
  if (only === undefined || others.length > 0) {
    return E.left([
      `${KEY_VARIABLES.join(', ')}: expected exactly one of them when JWT authentication is configured` +
        (only === undefined ? '' : `; ${chosen.map(({ name }) => name).join(' and ')} are set`),
    ])
  }
  return only.name === 'JWT_JWKS_URL'
    ? jwksSource(only.value, read('JWT_ALGORITHMS'), read('JWT_JWKS_MAX_FETCHES_PER_MINUTE'))
    : keySourceFrom(only.name, only.value, read('JWT_ALGORITHMS'))
}

const jwksSource = (value: string, algorithms: string | undefined, maxFetches: string | undefined): Parsed<KeySource> =>
  pipe(
    sequenceS(validation)({
      url: jwksUrl(value),
      algorithms: algorithmList(algorithms, ASYMMETRIC_ALGORITHMS, 'a JWKS URL'),
      maxFetchesPerMinute: fetchesPerMinute(maxFetches),
    }),
    E.map(({ url, algorithms, maxFetchesPerMinute }) => ({ _tag: 'Jwks' as const, url, algorithms, maxFetchesPerMinute })),
  )

const DEFAULT_MAX_FETCHES_PER_MINUTE = 6

const fetchesPerMinute = (value: string | undefined): Parsed<number> => {
  if (value === undefined) return E.right(DEFAULT_MAX_FETCHES_PER_MINUTE)
  const count = /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN
  return count >= 1 && count <= 600
    ? E.right(count)
    : E.left(['JWT_JWKS_MAX_FETCHES_PER_MINUTE: expected a whole number of fetches from 1 to 600'])
}

const keySourceFrom = (
  name: Exclude<KeyVariable, 'JWT_JWKS_URL'>,
  value: string,
  algorithms: string | undefined,
): Parsed<KeySource> => {
  switch (name) {
    case 'JWT_PUBLIC_KEY':
      return pipe(
        publicKey(value),
        E.flatMap(({ key, usable }) =>
          pipe(
            algorithmList(algorithms, usable, 'this public key'),
            E.map((allowed) => ({ _tag: 'PublicKey' as const, key, algorithms: allowed })),
          ),
        ),
      )
    case 'JWT_SECRET':
      return pipe(
        algorithmList(algorithms, HMAC_ALGORITHMS, 'a shared secret'),
        E.flatMap((allowed) =>
          pipe(
            secret(value, allowed),
            E.map((bytes) => ({ _tag: 'Secret' as const, secret: bytes, algorithms: allowed })),
          ),
        ),
      )
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

// Keys fetched over plain HTTP could be swapped on the way, and whoever swaps them mints tokens.
const jwksUrl = (value: string): Parsed<URL> => {
  const url = URL.canParse(value) ? new URL(value) : undefined
  const secure = url?.protocol === 'https:' || (url?.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
  return url !== undefined && secure
    ? E.right(url)
    : E.left(['JWT_JWKS_URL: expected an https URL of a JSON Web Key Set (http only for a loopback host)'])
}

const publicKey = (value: string): Parsed<{ key: KeyObject; usable: RNEA.ReadonlyNonEmptyArray<AsymmetricAlgorithm> }> =>
  pipe(
    // A PEM is multi-line; one-line forms of environment files write its line breaks as `\n`.
    parsePublicKeyPem(value.replaceAll('\\n', '\n')),
    E.flatMap((key) => pipe(algorithmsForKey(key), E.map((usable) => ({ key, usable })))),
    E.mapLeft((expected) => [`JWT_PUBLIC_KEY: expected ${expected}`]),
  )

const secret = (value: string, algorithms: RNEA.ReadonlyNonEmptyArray<HmacAlgorithm>): Parsed<Uint8Array> => {
  const bytes = new TextEncoder().encode(value)
  const needed = Math.max(MINIMUM_SECRET_BYTES, ...algorithms.map(minimumSecretBytes))
  return bytes.length >= needed
    ? E.right(bytes)
    : E.left([`JWT_SECRET: expected at least ${needed} bytes for ${algorithms.join(', ')} (a random string of ${needed} characters or more)`])
}

/**
 * The allowed algorithms: the configured comma-separated list, each one usable with the key
 * source, or the first usable one when none is configured.
 */
const algorithmList = <A extends string>(
  value: string | undefined,
  usable: RNEA.ReadonlyNonEmptyArray<A>,
  keyDescription: string,
): Parsed<RNEA.ReadonlyNonEmptyArray<A>> => {
  if (value === undefined) return E.right([RNEA.head(usable)])
  const entries = value.split(',').map((entry) => entry.trim())
  const isUsable = (entry: string): entry is A => (usable as ReadonlyArray<string>).includes(entry)
  const refused = entries.filter((entry) => !isUsable(entry))
  const accepted = entries.filter(isUsable)
  return refused.length === 0 && RA.isNonEmpty(accepted)
    ? E.right(RA.uniq<A>({ equals: (a, b) => a === b })(accepted) as RNEA.ReadonlyNonEmptyArray<A>)
    : E.left([
        `JWT_ALGORITHMS: expected a comma-separated list of ${usable.join(', ')}, the algorithms ${keyDescription} can verify` +
          (refused.length > 0 ? `; ${refused.map(describeEntry).join(', ')} cannot be used` : ''),
      ])
}

// The entries are algorithm names, not secrets, so naming the wrong ones helps without exposing anything.
const describeEntry = (entry: string): string =>
  entry === '' ? 'an empty entry' : entry.toLowerCase() === 'none' ? '"none" (unsigned tokens are never accepted)' : `"${entry}"`

const required = (name: JwtVariable, value: string | undefined, expected: string): Parsed<string> =>
  value === undefined ? E.left([`${name}: expected ${expected}; it is required with JWT authentication`]) : E.right(value)

const optional = <A>(value: string | undefined, parse: (value: string) => Parsed<A>): Parsed<A | undefined> =>
  value === undefined ? E.right(undefined) : parse(value)

const requiredScope = (value: string): Parsed<ScopeToken> =>
  ScopeToken.is(value)
    ? E.right(value)
    : E.left(['JWT_REQUIRED_SCOPE: expected one OAuth scope (printable ASCII, no space, quote or backslash)'])

const clockTolerance = (value: string | undefined): Parsed<number> => {
  if (value === undefined) return E.right(DEFAULT_CLOCK_TOLERANCE_SECONDS)
  const seconds = /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN
  return seconds <= MAXIMUM_CLOCK_TOLERANCE_SECONDS
    ? E.right(seconds)
    : E.left([`JWT_CLOCK_TOLERANCE: expected whole seconds from 0 to ${MAXIMUM_CLOCK_TOLERANCE_SECONDS}`])
}
