import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  type FetchImplementation,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose'
import { ignoreKeySetFetches, type KeySetObserver } from './key-set-observer.js'
import type { JwksKeySource } from './options.js'

const DEFAULT_COOLDOWN_MS = 30_000
const DEFAULT_TIMEOUT_MS = 5_000
const DEFAULT_CACHE_MAX_AGE_MS = 600_000

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
 * Resolves a token's verification key from a provider's JSON Web Key Set. Beyond jose's remote
 * set (cache, refetch on an unknown `kid` at most once per cool-down), it keeps serving the last
 * fetched keys while the provider cannot be reached, whatever their age, and, after a failed
 * fetch, does not ask the provider again until the cool-down has passed.
 */
export const makeRemoteKeySet = (source: JwksKeySource, observer: KeySetObserver = ignoreKeySetFetches): JWTVerifyGetKey => {
  const cooldownMs = source.cooldownMs ?? DEFAULT_COOLDOWN_MS
  const remote = createRemoteJWKSet(source.url, {
    cooldownDuration: cooldownMs,
    timeoutDuration: source.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    cacheMaxAge: source.cacheMaxAgeMs ?? DEFAULT_CACHE_MAX_AGE_MS,
    [customFetch]: fetchBackingOffAfterFailure(cooldownMs, observer),
  })
  return async (header, token) => {
    try {
      return await remote(header, token)
    } catch (error) {
      if (isAboutTheToken(error)) throw error
      return fromCachedKeys(remote.jwks(), error)(header, token)
    }
  }
}

// What jose's key selection says about the token itself; any other failure of the remote set
// came from fetching or reading the key set.
const isAboutTheToken = (error: unknown): boolean =>
  error instanceof errors.JWKSNoMatchingKey ||
  error instanceof errors.JWKSMultipleMatchingKeys ||
  error instanceof errors.JOSENotSupported

const fromCachedKeys =
  (cached: JSONWebKeySet | undefined, fetchFailure: unknown): JWTVerifyGetKey =>
  async (header, token) => {
    if (cached === undefined) throw new KeySetUnavailable(fetchFailure)
    try {
      return await createLocalJWKSet(cached)(header, token)
    } catch (error) {
      // The token may name a key the provider added while it was unreachable: not the client's fault.
      throw error instanceof errors.JWKSNoMatchingKey ? new KeySetUnavailable(fetchFailure) : error
    }
  }

// jose's cool-down counts from the last successful fetch only; without this, every token would
// trigger a fetch while the provider is failing.
const fetchBackingOffAfterFailure = (backoffMs: number, observer: KeySetObserver): FetchImplementation => {
  let lastFailure: { readonly at: number; readonly error: unknown } | undefined
  const fail = (error: unknown): void => {
    lastFailure = { at: Date.now(), error }
  }
  return async (url, init) => {
    if (lastFailure !== undefined && Date.now() - lastFailure.at < backoffMs) {
      throw new Error(`the key set failed less than ${backoffMs} ms ago; not asking again yet`, {
        cause: lastFailure.error,
      })
    }
    const started = performance.now()
    const seconds = () => (performance.now() - started) / 1000
    try {
      const response = await fetch(url, init)
      if (response.status !== 200) fail(new Error(`the key set answered HTTP ${response.status}`))
      observer.keySetFetched(response.status === 200 ? 'ok' : 'failed', seconds())
      return response
    } catch (error) {
      fail(error)
      observer.keySetFetched('failed', seconds())
      throw error
    }
  }
}
