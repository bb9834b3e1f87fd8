import type { FlattenedJWSInput, JWTVerifyGetKey } from 'jose'
import { repeatEvery, type Clock } from '../../core/index.js'
import { systemClock } from '../../wire/index.js'
import { guardedFetch } from './key-set-fetch.js'
import { keyIdExcerpt, keyIdOf } from './key-id.js'
import { ignoreKeySetFetches, type KeySetObserver } from './key-set-observer.js'
import { jwksOptionsOf, type JwksKeySource } from './options.js'
import { createLocalJWKSet, createRemoteJWKSet, customFetch, errors } from './peers.js'


/**
 * The key set cannot be fetched and no cached key fits the token. The fault lies with the
 * provider or the network, not with the client; `cause` says what the fetch ran into.
 */
export class KeySetUnavailable extends Error {
  override readonly name = 'KeySetUnavailable'
  constructor(cause: unknown) {
    super('the JSON Web Key Set cannot be fetched and no cached key fits the token', { cause })
  }
}

/**
 * The provider's key set, as last fetched, holds no key the token can name: the token is refused.
 * The message shows only an excerpt of the `kid`, for the log.
 */
export class UnknownSigningKey extends Error {
  override readonly name = 'UnknownSigningKey'
  constructor(kid: string | undefined) {
    super(`the key set does not hold the key the token names: ${keyIdExcerpt(kid)}`)
  }
}

/**
 * Resolves a token's verification key from a provider's JSON Web Key Set. Beyond jose's remote
 * set (cache, refetch on an unknown `kid` at most once per cool-down), it keeps serving the last
 * fetched keys while the provider cannot be reached, whatever their age; after a failed fetch
 * (an answer that is not a key set, is too large or holds too many keys counts as one) it does
 * not ask the provider again until the cool-down has passed; and it never starts more than
 * `maxFetchesPerMinute` fetches a minute.
 *
 * `screen` runs first, on the token's unverified claims, and then the `kid` is checked: a token
 * that cannot pass them (another issuer or audience, expired, a `kid` that is not a non-empty
 * string) is refused before any fetch.
 *
 * A token naming a key the set does not hold is refused (`UnknownSigningKey`) once the set has
 * been fetched again, or while the cool-down after the last fetch forbids it: at most one
 * refetch per cool-down, however many such tokens arrive. Only while the provider cannot be
 * reached (its last fetch failed) is such a token `KeySetUnavailable`: the key may be one it
 * rotated in. The set is also fetched again every `refreshIntervalMs` (`repeatEvery`), on a
 * timer that does not keep the process alive, so a rotated-in key is known before tokens name it.
 * Every time is read and timed on `clock`.
 */
export const makeRemoteKeySet = (
  source: JwksKeySource,
  observer: KeySetObserver = ignoreKeySetFetches,
  screen: (token: FlattenedJWSInput) => void = () => undefined,
  clock: Clock = systemClock,
): JWTVerifyGetKey => {
  const { cooldownMs, timeoutMs, cacheMaxAgeMs, maxFetchesPerMinute, maxKeySetBytes, maxKeys, refreshIntervalMs } = jwksOptionsOf(source)
  // The keys last fetched, made a local set once per fetch; and why the last fetch failed, if it did.
  let held: JWTVerifyGetKey | undefined
  let unreachable: { readonly error: unknown } | undefined
  const fetchKeySet = guardedFetch(
    {
      backoffMs: cooldownMs,
      maxPerMinute: maxFetchesPerMinute,
      maxBytes: maxKeySetBytes,
      maxKeys,
    },
    observer,
    {
      fetched: (keySet) => {
        held = createLocalJWKSet(keySet)
        unreachable = undefined
      },
      failed: (error) => {
        unreachable = { error }
      },
    },
    clock,
  )
  const remote = createRemoteJWKSet(source.url, {
    cooldownDuration: cooldownMs,
    timeoutDuration: timeoutMs,
    cacheMaxAge: cacheMaxAgeMs,
    [customFetch]: fetchKeySet,
  })
  // A failed refresh changes nothing: the keys held keep serving, and the next token or tick asks again.
  repeatEvery(clock, refreshIntervalMs, () => void remote.reload().catch(() => undefined))
  const noKeyFor = (kid: string | undefined, fetchFailure: unknown): Error =>
    unreachable === undefined ? new UnknownSigningKey(kid) : new KeySetUnavailable(fetchFailure ?? unreachable.error)
  return async (header, token) => {
    // Only a token that could have been issued for this service may make the set be fetched.
    screen(token)
    const kid = keyIdOf(header)
    try {
      return await remote(header, token)
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey) throw noKeyFor(kid, undefined)
      if (isAboutTheToken(error)) throw error
      // The set could not be fetched, or a fetch was not allowed yet: the keys last fetched answer.
      if (held === undefined) throw new KeySetUnavailable(error)
      try {
        return await held(header, token)
      } catch (heldError) {
        throw heldError instanceof errors.JWKSNoMatchingKey ? noKeyFor(kid, error) : heldError
      }
    }
  }
}

// What jose's key selection says about the token itself; any other failure of the remote set
// came from fetching or reading the key set.
const isAboutTheToken = (error: unknown): boolean =>
  error instanceof errors.JWKSMultipleMatchingKeys || error instanceof errors.JOSENotSupported

