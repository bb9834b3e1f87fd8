import { KeyObject } from 'node:crypto'
import { sequenceS } from 'fp-ts/lib/Apply.js'
import * as E from 'fp-ts/lib/Either.js'
import * as RA from 'fp-ts/lib/ReadonlyArray.js'
import * as RNEA from 'fp-ts/lib/ReadonlyNonEmptyArray.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as t from 'io-ts'
import {
  algorithmsForKey,
  ASYMMETRIC_ALGORITHMS,
  DEFAULT_JWKS_OPTIONS,
  HMAC_ALGORITHMS,
  minimumSecretBytes,
  parsePublicKeyPem,
  ScopeToken,
  type AsymmetricAlgorithm,
  type HmacAlgorithm,
  type JwtAuthenticatorOptions,
  type KeySource,
} from '../../adapters/jwt/index.js'
import { decodeEnvironment, explainedSetting, listFrom, numberFrom, Setting, setting, textFrom, withDefault, type SettingHelp } from './env-codecs.js'

type Messages = ReadonlyArray<string>
type Parsed<A> = E.Either<Messages, A>

const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30
const MAXIMUM_CLOCK_TOLERANCE_SECONDS = 300
const MINIMUM_SECRET_BYTES = 32
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** A setting JWT authentication cannot do without, once any `JWT_` variable is set. */
const requiredWithJwt = <A>(codec: Setting<A | undefined>, expected: string): Setting<A> =>
  new Setting<A>(
    codec.name,
    (u): u is A => codec.is(u) && u !== undefined,
    (u, c) =>
      pipe(
        codec.validate(u, c),
        E.flatMap((a) => (a === undefined ? t.failure(u, c, `${expected}; it is required with JWT authentication`) : t.success(a))),
      ),
    (a) => codec.encode(a),
    `${expected}; required with JWT authentication`,
  )

const anyText = (text: string): string => text

const Text = setting('Text', 'text', anyText, textFrom(anyText))

// Keys fetched over plain HTTP could be swapped on the way, and whoever swaps them mints tokens.
const parseJwksUrl = (text: string): URL | undefined => {
  const url = URL.canParse(text) ? new URL(text) : undefined
  const secure = url?.protocol === 'https:' || (url?.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
  return secure ? url : undefined
}

const JwksUrl = setting(
  'JwksUrl',
  'an https URL of a JSON Web Key Set (http only for a loopback host)',
  parseJwksUrl,
  (u): u is URL => u instanceof URL && parseJwksUrl(u.href) !== undefined,
)

interface UsablePublicKey {
  readonly key: KeyObject
  readonly usable: RNEA.ReadonlyNonEmptyArray<AsymmetricAlgorithm>
}

const PublicKeyPem = explainedSetting(
  'PublicKeyPem',
  'a PEM public key or X.509 certificate (RSA of 2048 bits or more, EC P-256/P-384/P-521, Ed25519), one line with \\n escapes working',
  (text): E.Either<string, UsablePublicKey> =>
    pipe(
      // A PEM is multi-line; one-line forms of environment files write its line breaks as `\n`.
      parsePublicKeyPem(text.replaceAll('\\n', '\n')),
      E.flatMap((key) => pipe(algorithmsForKey(key), E.map((usable) => ({ key, usable })))),
    ),
  (u): u is UsablePublicKey =>
    typeof u === 'object' && u !== null && 'key' in u && u.key instanceof KeyObject && 'usable' in u && Array.isArray(u.usable) && u.usable.length > 0,
  ({ key }) => key.export({ type: 'spki', format: 'pem' }).toString(),
)

// Any text will do here; whether it is long enough depends on the algorithms (see `secret`).
const SharedSecret = setting('SharedSecret', 'a shared secret', anyText, textFrom(anyText))

// The entries are checked against the key source once it is known (see `algorithmList`).
const algorithmNames = (text: string): ReadonlyArray<string> => text.split(',').map((entry) => entry.trim())

const AlgorithmNames = setting('AlgorithmNames', 'a comma-separated list of algorithms', algorithmNames, listFrom(algorithmNames))

const RequiredScope = setting(
  'RequiredScope',
  'one OAuth scope (printable ASCII, no space, quote or backslash)',
  (text) => (ScopeToken.is(text) ? text : undefined),
  ScopeToken.is,
)

const parseFetchesPerMinute = (text: string): number | undefined => {
  const fetches = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN
  return fetches >= 1 && fetches <= 600 ? fetches : undefined
}

const FetchesPerMinute = setting('FetchesPerMinute', 'a whole number of fetches from 1 to 600', parseFetchesPerMinute, numberFrom(parseFetchesPerMinute))

const parseClockTolerance = (text: string): number | undefined => {
  const seconds = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN
  return seconds <= MAXIMUM_CLOCK_TOLERANCE_SECONDS ? seconds : undefined
}

const ClockTolerance = setting(
  'ClockTolerance',
  `whole seconds from 0 to ${MAXIMUM_CLOCK_TOLERANCE_SECONDS}`,
  parseClockTolerance,
  numberFrom(parseClockTolerance),
)

/** The variables that say where verification keys come from, and which algorithms they verify. */
const KeyVariables = t.type({
  JWT_JWKS_URL: JwksUrl,
  JWT_PUBLIC_KEY: PublicKeyPem,
  JWT_SECRET: SharedSecret,
  JWT_ALGORITHMS: AlgorithmNames,
  // However many unknown `kid`s tokens name, the provider is asked at most this often.
  JWT_JWKS_MAX_FETCHES_PER_MINUTE: withDefault(FetchesPerMinute, DEFAULT_JWKS_OPTIONS.maxFetchesPerMinute),
})
type KeyVariables = t.TypeOf<typeof KeyVariables>

/** The variables that say what an accepted token must carry. */
const ClaimVariables = t.type({
  // Without both, a token the same provider issued for another application, or another tenant
  // of a shared provider, would be accepted here: the signature alone proves only who signed
  // it, not for whom.
  JWT_ISSUER: requiredWithJwt(Text, 'the "iss" your identity provider puts in its access tokens'),
  JWT_AUDIENCE: requiredWithJwt(Text, 'the "aud" that names this service (its API identifier)'),
  JWT_REQUIRED_SCOPE: RequiredScope,
  JWT_CLOCK_TOLERANCE: withDefault(ClockTolerance, DEFAULT_CLOCK_TOLERANCE_SECONDS),
})

const KEY_VARIABLES = ['JWT_JWKS_URL', 'JWT_PUBLIC_KEY', 'JWT_SECRET'] as const
/** Every JWT_ variable the service reads, with its codec. */
export const JWT_SETTINGS: Readonly<Record<string, SettingHelp>> = { ...KeyVariables.props, ...ClaimVariables.props }

/** Every JWT_ variable the service reads. */
export const JWT_VARIABLES: ReadonlyArray<string> = Object.keys(JWT_SETTINGS)

const validation = E.getApplicativeValidation(RA.getSemigroup<string>())

/**
 * Reads the JWT authentication settings from the environment: `undefined` when no `JWT_`
 * variable is set, the authenticator's options when they are complete and sound, or every
 * problem found, each naming its variable and what it expects. An empty value counts as unset.
 */
export const parseJwtConfig = (env: Readonly<Record<string, string | undefined>>): Parsed<JwtAuthenticatorOptions | undefined> => {
  if (JWT_VARIABLES.every((name) => env[name] === undefined || env[name] === '')) return E.right(undefined)
  return pipe(
    sequenceS(validation)({
      keys: pipe(decodeEnvironment(KeyVariables, env), E.flatMap(keySource)),
      claims: decodeEnvironment(ClaimVariables, env),
    }),
    E.map(({ keys, claims }) => ({
      keys,
      issuer: claims.JWT_ISSUER,
      audience: claims.JWT_AUDIENCE,
      clockToleranceSeconds: claims.JWT_CLOCK_TOLERANCE,
      ...(claims.JWT_REQUIRED_SCOPE === undefined ? {} : { requiredScope: claims.JWT_REQUIRED_SCOPE }),
    })),
  )
}

const keySource = ({
  JWT_JWKS_URL,
  JWT_PUBLIC_KEY,
  JWT_SECRET,
  JWT_ALGORITHMS: algorithms,
  JWT_JWKS_MAX_FETCHES_PER_MINUTE: maxFetchesPerMinute,
}: KeyVariables): Parsed<KeySource> => {
  const chosen = [
    ...candidate('JWT_JWKS_URL', JWT_JWKS_URL, (url) =>
      pipe(
        algorithmList(algorithms, ASYMMETRIC_ALGORITHMS, 'a JWKS URL'),
        E.map((allowed) => ({ _tag: 'Jwks' as const, url, algorithms: allowed, maxFetchesPerMinute })),
      ),
    ),
    ...candidate('JWT_PUBLIC_KEY', JWT_PUBLIC_KEY, ({ key, usable }) =>
      pipe(
        algorithmList(algorithms, usable, 'this public key'),
        E.map((allowed) => ({ _tag: 'PublicKey' as const, key, algorithms: allowed })),
      ),
    ),
    ...candidate('JWT_SECRET', JWT_SECRET, (text) =>
      pipe(
        algorithmList(algorithms, HMAC_ALGORITHMS, 'a shared secret'),
        E.flatMap((allowed) => pipe(secret(text, allowed), E.map((bytes) => ({ _tag: 'Secret' as const, secret: bytes, algorithms: allowed })))),
      ),
    ),
  ]
  const [only, ...others] = chosen
  return only !== undefined && others.length === 0
    ? only.keys()
    : E.left([
        `${KEY_VARIABLES.join(', ')}: expected exactly one of them when JWT authentication is configured` +
          (only === undefined ? '' : `; ${chosen.map(({ name }) => name).join(' and ')} are set`),
      ])
}

/** A key source the variable `name` would give, when it is set. */
const candidate = <A>(name: string, value: A | undefined, keys: (value: A) => Parsed<KeySource>) =>
  value === undefined ? [] : [{ name, keys: () => keys(value) }]

const secret = (value: string, algorithms: RNEA.ReadonlyNonEmptyArray<HmacAlgorithm>): Parsed<Uint8Array> => {
  const bytes = new TextEncoder().encode(value)
  const needed = Math.max(MINIMUM_SECRET_BYTES, ...algorithms.map(minimumSecretBytes))
  return bytes.length >= needed
    ? E.right(bytes)
    : E.left([`JWT_SECRET: expected at least ${needed} bytes for ${algorithms.join(', ')} (a random string of ${needed} characters or more)`])
}

/**
 * The allowed algorithms: the configured list, each one usable with the key source, or the
 * first usable one when none is configured.
 */
const algorithmList = <A extends string>(
  entries: ReadonlyArray<string> | undefined,
  usable: RNEA.ReadonlyNonEmptyArray<A>,
  keyDescription: string,
): Parsed<RNEA.ReadonlyNonEmptyArray<A>> => {
  if (entries === undefined) return E.right([RNEA.head(usable)])
  const isUsable = (entry: string): entry is A => (usable as ReadonlyArray<string>).includes(entry)
  const refused = entries.filter((entry) => !isUsable(entry))
  const accepted = entries.filter(isUsable)
  return refused.length === 0 && RA.isNonEmpty(accepted)
    ? E.right(RNEA.uniq<A>({ equals: (a, b) => a === b })(accepted))
    : E.left([
        `JWT_ALGORITHMS: expected a comma-separated list of ${usable.join(', ')}, the algorithms ${keyDescription} can verify` +
          (refused.length > 0 ? `; ${refused.map(describeEntry).join(', ')} cannot be used` : ''),
      ])
}

// The entries are algorithm names, not secrets, so naming the wrong ones helps without exposing anything.
const describeEntry = (entry: string): string =>
  entry === '' ? 'an empty entry' : entry.toLowerCase() === 'none' ? '"none" (unsigned tokens are never accepted)' : `"${entry}"`
