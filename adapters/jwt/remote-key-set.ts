import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  type FetchImplementation,
  type FlattenedJWSInput,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from 'jose'
import { ignoreKeySetFetches, type KeySetObserver } from './key-set-observer.js'
import type { JwksKeySource } from './options.js'

const DEFAULT_COOLDOWN_MS = 30_000
const DEFAULT_TIMEOUT_MS = 5_000
const DEFAULT_CACHE_MAX_AGE_MS = 600_000
const DEFAULT_REFRESH_INTERVAL_MS = 300_000
/** At most this many key-set fetches start in any minute, unless the source says otherwise. */
export const DEFAULT_MAX_FETCHES_PER_MINUTE = 6

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
 * fetched keys while the provider cannot be reached, whatever their age; after a failed fetch
 * (an answer that is not a key set counts as one) it does not ask the provider again until the
 * cool-down has passed; and it never starts more than `maxFetchesPerMinute` fetches a minute.
 *
 * `screen` runs first, on the token's unverified claims: a token that cannot pass them (another
 * issuer or audience, expired) is refused before any fetch.
 *
 * A token naming a key the set does not hold while no fetch may start (the cool-down after the
 * last one) is answered `KeySetUnavailable`, not refused: the key may have been rotated in since,
 * and a client told 401 would not retry. So a flood of tokens naming random keys, which keeps the
 * cool-down hot, cannot make a real rotation look like bad tokens. The set is also fetched again
 * every `refreshIntervalMs`, on a timer that does not keep the process alive.
 */
export const makeRemoteKeySet = (
  source: JwksKeySource,
  observer: KeySetObserver = ignoreKeySetFetches,
  screen: (token: FlattenedJWSInput) => void = () => undefined,
): JWTVerifyGetKey => {
  const cooldownMs = source.cooldownMs ?? DEFAULT_COOLDOWN_MS
  let fetches = 0
  const counted: KeySetObserver = {
    keySetFetched: (outcome, seconds) => {
      fetches += 1
      observer.keySetFetched(outcome, seconds)
    },
  }
  const remote = createRemoteJWKSet(source.url, {
    cooldownDuration: cooldownMs,
    timeoutDuration: source.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    cacheMaxAge: source.cacheMaxAgeMs ?? DEFAULT_CACHE_MAX_AGE_MS,
    [customFetch]: guardedFetch(cooldownMs, source.maxFetchesPerMinute ?? DEFAULT_MAX_FETCHES_PER_MINUTE, counted),
  })
  // A failed refresh changes nothing: the keys held keep serving, and the next token or tick asks again.
  setInterval(() => void remote.reload().catch(() => undefined), source.refreshIntervalMs ?? DEFAULT_REFRESH_INTERVAL_MS).unref()
  return async (header, token) => {
    // Only a token that could have been issued for this service may make the set be fetched.
    screen(token)
    const fetchesBefore = fetches
    try {
      return await remote(header, token)
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey && header.kid !== undefined && fetches === fetchesBefore && remote.coolingDown) {
        throw new KeySetUnavailable(new Error(`the key set was fetched less than ${cooldownMs} ms ago, and does not hold key "${header.kid}" yet`))
      }
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

// jose's cool-down counts from the last successful fetch only, and a 200 whose body is not a
// key set is no success to it either: without this, every token naming an unknown `kid` would
// trigger a fetch while the provider fails or answers nonsense (issue 8: 6,915 fetches in 20 s).
// A failure is an error, a status other than 200, or a body that is not a JSON Web Key Set;
// after one, the provider is not asked again for `backoffMs`. Whatever happens, at most
// `maxPerMinute` fetches start in any 60 s.
const guardedFetch = (backoffMs: number, maxPerMinute: number, observer: KeySetObserver): FetchImplementation => {
  let lastFailure: { readonly at: number; readonly error: unknown } | undefined
  const started: number[] = []
  const fail = (error: unknown): void => {
    lastFailure = { at: Date.now(), error }
  }
  return async (url, init) => {
    const now = Date.now()
    if (lastFailure !== undefined && now - lastFailure.at < backoffMs) {
      throw new Error(`the key set failed less than ${backoffMs} ms ago; not asking again yet`, {
        cause: lastFailure.error,
      })
    }
    while (started.length > 0 && now - (started[0] ?? now) >= 60_000) started.shift()
    if (started.length >= maxPerMinute) {
      throw new Error(`the key set was fetched ${maxPerMinute} times in the last minute; not asking again yet`)
    }
    started.push(now)
    const fetchStarted = performance.now()
    const seconds = () => (performance.now() - fetchStarted) / 1000
    let answered: Response
    let body = ''
    try {
      answered = await fetch(url, init)
      if (answered.status === 200) body = await answered.text()
    } catch (error) {
      fail(error)
      observer.keySetFetched('failed', seconds())
      throw error
    }
    // Reported outside the fetch's guard: an observer that throws is not a failed fetch.
    if (answered.status !== 200) {
      fail(new Error(`the key set answered HTTP ${answered.status}`))
      observer.keySetFetched('failed', seconds())
      return answered
    }
    const keySet = isKeySet(body)
    if (!keySet) fail(new Error('the key set URL answered 200 with something that is not a JSON Web Key Set'))
    observer.keySetFetched(keySet ? 'ok' : 'failed', seconds())
    return new Response(body, { status: answered.status, statusText: answered.statusText, headers: answered.headers })
  }
}

// The shape jose accepts as a key set: a JSON object whose `keys` is an array of objects.
const isKeySet = (body: string): boolean => {
  try {
    const parsed: unknown = JSON.parse(body)
    if (typeof parsed !== 'object' || parsed === null || !('keys' in parsed)) return false
    const keys: unknown = parsed.keys
    return Array.isArray(keys) && keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key))
  } catch {
    return false
  }
}
