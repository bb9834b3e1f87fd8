import type { FlattenedJWSInput, JWTVerifyGetKey } from 'jose'
import { repeatEvery, type Clock } from '../../core/index.js'
import { systemClock } from '../../wire/index.js'
import { fetchAdmission, fetchKeySet, type FetchReason, type Requester } from './key-set-fetch.js'
import { keyIdExcerpt, keyIdOf } from './key-id.js'
import { ignoreKeySetFetches, type KeySetObserver } from './key-set-observer.js'
import { jwksOptionsOf, type JwksKeySource } from './options.js'
import { createLocalJWKSet, errors } from './peers.js'

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
 * Resolves a token's verification key from a provider's JSON Web Key Set, fetched with `request`
 * (the platform's `fetch` unless a test models the provider). The keys last fetched are held and
 * serve every token; they are fetched again before use once older than `cacheMaxAgeMs` (or while
 * none are held), when a token names a key they do not hold, and every `refreshIntervalMs` on a
 * timer (`repeatEvery`, which does not keep the process alive), so a rotated-in key is known
 * before tokens name it. A fetch wanted while one is under way joins it; any other asks
 * `fetchAdmission`, the one rule of when the provider may be asked. While the provider cannot be reached the keys held keep serving, whatever their age; a fetch
 * that fails (an answer that is not a key set, is too large or holds too many keys counts as one)
 * leaves them as they were.
 *
 * `screen` runs first, on the token's unverified claims, and then the `kid` is checked: a token
 * that cannot pass them (another issuer or audience, expired, a `kid` that is not a non-empty
 * string) is refused before any fetch.
 *
 * A token naming a key the set does not hold is refused (`UnknownSigningKey`) once the set has
 * been fetched again, or when the rule lets no fetch start: however many such tokens arrive, at
 * most one fetch a cool-down is made for them. Only while the provider cannot be reached (its last
 * fetch failed) is such a token `KeySetUnavailable`: the key may be one it rotated in. Every time
 * is read and timed on `clock`. jose's remote key set times its own cool-down, cache age and
 * time-out on the wall clock, so jose is given only the keys fetched (`createLocalJWKSet`).
 */
export const makeRemoteKeySet = (
  source: JwksKeySource,
  observer: KeySetObserver = ignoreKeySetFetches,
  screen: (token: FlattenedJWSInput) => void = () => undefined,
  clock: Clock = systemClock,
  request: Requester = fetch,
): JWTVerifyGetKey => {
  const { cooldownMs, timeoutMs, cacheMaxAgeMs, maxFetchesPerMinute, maxKeySetBytes, maxKeys, refreshIntervalMs } = jwksOptionsOf(source)
  const admission = fetchAdmission({ cooldownMs, maxPerMinute: maxFetchesPerMinute }, clock)
  const read = { timeoutMs, maxBytes: maxKeySetBytes, maxKeys }
  // The keys last fetched, made a local set once per fetch, and when they came; why the last
  // fetch failed, if it did; the fetch under way, if one is.
  let held: { readonly keys: JWTVerifyGetKey; readonly at: number } | undefined
  let unreachable: { readonly error: unknown } | undefined
  let underWay: Promise<unknown> | undefined

  // Settles once the fetch has ended with why it brought no keys (its failure), or undefined when
  // it did.
  const attempt = async (): Promise<unknown> => {
    const started = clock.now()
    let failure: { readonly error: unknown } | undefined
    try {
      const keys = createLocalJWKSet(await fetchKeySet(source.url, read, clock, request))
      held = { keys, at: clock.now() }
    } catch (error) {
      failure = { error }
    }
    unreachable = failure
    admission.ended(failure)
    underWay = undefined
    // Told last, once the fetch has ended. The observer is a report on the side, as the HTTP
    // adapter's ports are: one that throws loses its report, never the token's verdict.
    try {
      observer.keySetFetched(failure === undefined ? 'ok' : 'failed', (clock.now() - started) / 1000)
    } catch {
      // the report is lost; the keys fetched still serve
    }
    return failure?.error
  }
  // Why no new keys came for `reason`: the rule refused the fetch, or it failed; undefined when they came.
  const fetchFor = (reason: FetchReason): Promise<unknown> => {
    if (underWay !== undefined) return underWay
    const refusal = admission.refusal(reason)
    if (refusal !== undefined) return Promise.resolve(refusal)
    underWay = attempt()
    return underWay
  }
  // A failed refresh changes nothing: the keys held keep serving, and the next token or tick asks
  // again.
  repeatEvery(clock, refreshIntervalMs, () => void fetchFor('refresh').catch(() => undefined))

  const noKeyFor = (kid: string | undefined, noNewKeys: unknown): Error =>
    unreachable === undefined ? new UnknownSigningKey(kid) : new KeySetUnavailable(noNewKeys ?? unreachable.error)
  return async (header, token) => {
    // Only a token that could have been issued for this service may make the set be fetched.
    screen(token)
    const kid = keyIdOf(header)
    const cached = held
    const refreshed = cached === undefined || clock.now() - cached.at >= cacheMaxAgeMs ? await fetchFor('refresh') : undefined
    const looked = held
    if (looked === undefined) throw new KeySetUnavailable(refreshed)
    const found = await keyIn(looked.keys, header, token)
    if (found !== undefined) return found
    const refetched = await fetchFor('unknownKey')
    // Keys that another token's fetch brought meanwhile answer as well as keys this one's brought.
    const latest = held
    const again = latest !== undefined && latest !== looked ? await keyIn(latest.keys, header, token) : undefined
    if (again !== undefined) return again
    // This token's own failed fetch, when it made one, says best why the provider cannot be reached.
    throw noKeyFor(kid, refreshed ?? refetched)
  }
}

// The key the set holds for the token, or undefined when it holds none; any other failure (more
// than one key fits, a key jose cannot use) is the token's or the key's, thrown as it is.
const keyIn = async (keys: JWTVerifyGetKey, ...[header, token]: Parameters<JWTVerifyGetKey>): Promise<Awaited<ReturnType<JWTVerifyGetKey>> | undefined> => {
  try {
    return await keys(header, token)
  } catch (error) {
    if (error instanceof errors.JWKSNoMatchingKey) return undefined
    throw error
  }
}
