import type { KeyObject } from 'node:crypto'
import type { ReadonlyNonEmptyArray } from 'fp-ts/lib/ReadonlyNonEmptyArray.js'
import type { AsymmetricAlgorithm, HmacAlgorithm } from './algorithms.js'
import type { ScopeToken } from './scope-token.js'
import type { Clock } from '../../core/index.js'
import { MAX_TIMER_MS, wholeNumberOption } from '../../wire/index.js'

/**
 * Public keys published by an identity provider as a JSON Web Key Set. Keys are cached; a token
 * naming an unknown `kid` makes the set be fetched again, at most once per cool-down. Each number
 * is a whole number, of 1 or more (the cool-down 0 or more), a delay at most 2147483647 ms.
 */
export interface JwksKeySource {
  readonly _tag: 'Jwks'
  readonly url: URL
  readonly algorithms: ReadonlyNonEmptyArray<AsymmetricAlgorithm>
  /**
   * Milliseconds after a fetch during which a token naming an unknown `kid` makes no other fetch
   * (it is refused), and after a failed fetch during which the provider is not asked again. The
   * one rule of every fetch, whatever it is for: a fetch may start unless one failed less than
   * `cooldownMs` ago, or it is for a key the set does not hold and one ended less than
   * `cooldownMs` ago, or `maxFetchesPerMinute` started in the last 60 s. Default
   * `DEFAULT_JWKS_OPTIONS.cooldownMs`.
   */
  readonly cooldownMs?: number
  /** Milliseconds a fetch may take before the provider counts as unreachable. Default `DEFAULT_JWKS_OPTIONS.timeoutMs`. */
  readonly timeoutMs?: number
  /**
   * Milliseconds after which cached keys are fetched again before use, as the rule of `cooldownMs`
   * allows; when it does not, or the fetch fails, the keys held serve. Default
   * `DEFAULT_JWKS_OPTIONS.cacheMaxAgeMs`.
   */
  readonly cacheMaxAgeMs?: number
  /**
   * The most fetches of the key set started in any 60 s, whatever tokens arrive. Default
   * `DEFAULT_JWKS_OPTIONS.maxFetchesPerMinute`.
   */
  readonly maxFetchesPerMinute?: number
  /**
   * The most bytes of the key set read (after any content coding is undone); a larger answer is a
   * failed fetch, and the keys held keep serving. Default `DEFAULT_JWKS_OPTIONS.maxKeySetBytes`.
   */
  readonly maxKeySetBytes?: number
  /** The most keys the key set may hold; more is a failed fetch. Default `DEFAULT_JWKS_OPTIONS.maxKeys`. */
  readonly maxKeys?: number
  /**
   * How often the key set is fetched again on a timer, in milliseconds, so a key the provider
   * rotates in is known before any token names it (and however many tokens name unknown keys
   * meanwhile). Default `DEFAULT_JWKS_OPTIONS.refreshIntervalMs`.
   */
  readonly refreshIntervalMs?: number
}

/** The value of each optional field of a JWKS key source that is not given. */
export const DEFAULT_JWKS_OPTIONS: Required<Omit<JwksKeySource, '_tag' | 'url' | 'algorithms'>> = {
  cooldownMs: 30_000,
  timeoutMs: 5_000,
  cacheMaxAgeMs: 600_000,
  maxFetchesPerMinute: 6,
  // Providers publish a few keys, each a few kilobytes with its certificate chain: 1 MiB leaves
  // room for a hundred of them.
  maxKeySetBytes: 1_048_576,
  // Every token's key is looked for among them, so their number is a cost paid on each request.
  maxKeys: 100,
  refreshIntervalMs: 300_000,
}

/**
 * A JWKS source's options, each not given at its default, each a whole number in its range (a
 * RangeError names the first that is not): a byte or key bound of NaN would bound nothing, and a
 * timer's delay over 2147483647 ms fires at once.
 */
export const jwksOptionsOf = (source: JwksKeySource): typeof DEFAULT_JWKS_OPTIONS => {
  const given = { ...DEFAULT_JWKS_OPTIONS, ...definedOnly(source) }
  const check = (option: keyof typeof DEFAULT_JWKS_OPTIONS, least: number, most?: number): number =>
    wholeNumberOption('makeJwtAuthenticator', `keys.${option}`, given[option], least, most)
  return {
    cooldownMs: check('cooldownMs', 0, MAX_TIMER_MS),
    timeoutMs: check('timeoutMs', 1, MAX_TIMER_MS),
    cacheMaxAgeMs: check('cacheMaxAgeMs', 1),
    maxFetchesPerMinute: check('maxFetchesPerMinute', 1),
    maxKeySetBytes: check('maxKeySetBytes', 1),
    maxKeys: check('maxKeys', 1),
    refreshIntervalMs: check('refreshIntervalMs', 1, MAX_TIMER_MS),
  }
}

// An option given as `undefined` (from JavaScript, say) keeps its default.
const definedOnly = (source: JwksKeySource): Partial<typeof DEFAULT_JWKS_OPTIONS> =>
  Object.fromEntries(Object.entries(source).filter(([name, value]) => name in DEFAULT_JWKS_OPTIONS && value !== undefined))

/** One public key (RSA, EC or Ed25519), for a provider that signs with a fixed key. */
export interface PublicKeySource {
  readonly _tag: 'PublicKey'
  readonly key: KeyObject
  readonly algorithms: ReadonlyNonEmptyArray<AsymmetricAlgorithm>
}

/** A secret shared with the token issuer (HMAC). */
export interface SecretSource {
  readonly _tag: 'Secret'
  readonly secret: Uint8Array
  readonly algorithms: ReadonlyNonEmptyArray<HmacAlgorithm>
}

/**
 * Where verification keys come from. Each source carries the algorithms it allows, so an HMAC
 * algorithm can only be paired with a secret: a token that names HS256 and is "signed" with a
 * provider's public key (the algorithm confusion attack) finds no path to acceptance.
 */
export type KeySource = JwksKeySource | PublicKeySource | SecretSource

/** How JWT access tokens are checked. The algorithms come from here, never from the token. */
export interface JwtAuthenticatorOptions {
  readonly keys: KeySource
  /** The `iss` every accepted token must carry. */
  readonly issuer: string
  /** A value the token's `aud` must be, or contain. */
  readonly audience: string
  /** A scope the token must grant (in `scope` or `scp`); when absent, any valid token will do. */
  readonly requiredScope?: ScopeToken
  /** Seconds of clock skew forgiven when checking `exp` and `nbf`: a whole number, 0 or more. */
  readonly clockToleranceSeconds: number
  /**
   * Where `exp` and `nbf` are checked against (its `epochMs`), and the key set's cool-down, fetch
   * rate, cache age, refresh and fetch time-out are timed; `systemClock` when absent. A test
   * passes a virtual clock to move time past a token's expiry or a cool-down without waiting.
   */
  readonly clock?: Clock
}
