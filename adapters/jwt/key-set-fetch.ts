import type { FetchImplementation, JSONWebKeySet } from 'jose'
import * as E from 'fp-ts/lib/Either.js'
import { readBoundedBody } from '../../wire/index.js'
import type { KeySetObserver } from './key-set-observer.js'
import type { Clock } from '../../core/index.js'

/** When the provider may be asked, and how much of its answer is read. */
export interface KeySetFetchLimits {
  /** Milliseconds after a failed fetch during which the provider is not asked again. */
  readonly backoffMs: number
  readonly maxPerMinute: number
  readonly maxBytes: number
  readonly maxKeys: number
}

/** Where each fetch's result goes, besides the answer given to jose: the key set's own state. */
export interface KeySetFetchResults {
  /** A key set was fetched and read; a throw here makes the fetch a failure. */
  readonly fetched: (keySet: JSONWebKeySet) => void
  readonly failed: (error: unknown) => void
}

/** When the provider may be asked: the cool-down after a failure, and the fetches a minute. */
export interface FetchAdmission {
  /** Why a fetch may not start now, or `undefined` when it may; a fetch admitted is counted as started. */
  readonly refusal: () => Error | undefined
  /** The fetch just admitted failed: the cool-down starts now. */
  readonly failed: (error: unknown) => void
}

/**
 * The rule of when the provider may be asked: a fetch may start unless one failed less than
 * `backoffMs` ago, or `maxPerMinute` started in the last 60 s. Times are the clock's `now()`.
 */
export const fetchAdmission = ({ backoffMs, maxPerMinute }: Pick<KeySetFetchLimits, 'backoffMs' | 'maxPerMinute'>, clock: Clock): FetchAdmission => {
  let lastFailure: { readonly at: number; readonly error: unknown } | undefined
  const started: number[] = []
  return {
    refusal: () => {
      const now = clock.now()
      if (lastFailure !== undefined && now - lastFailure.at < backoffMs) {
        return new Error(`the key set failed less than ${backoffMs} ms ago; not asking again yet`, { cause: lastFailure.error })
      }
      while (started.length > 0 && now - (started[0] ?? now) >= 60_000) started.shift()
      if (started.length >= maxPerMinute) return new Error(`the key set was fetched ${maxPerMinute} times in the last minute; not asking again yet`)
      started.push(now)
      return undefined
    },
    failed: (error) => {
      lastFailure = { at: clock.now(), error }
    },
  }
}

// jose's cool-down counts from the last successful fetch only, and a 200 whose body is not a
// key set is no success to it either: without this, every token naming an unknown `kid` would
// trigger a fetch while the provider fails or answers nonsense. A failure is an error, a status
// other than 200, or a body that is too large, holds too many keys or is not a JSON Web Key Set;
// after one, the provider is not asked again for `backoffMs`. Whatever happens, at most
// `maxPerMinute` fetches start in any 60 s (`fetchAdmission`). A fetch refused by these rules is
// not made, and is neither reported nor a failure: what the provider last answered still stands.
export const guardedFetch = (limits: KeySetFetchLimits, observer: KeySetObserver, results: KeySetFetchResults, clock: Clock): FetchImplementation => {
  const admission = fetchAdmission(limits, clock)
  return async (url, init) => {
    const refusal = admission.refusal()
    if (refusal !== undefined) throw refusal
    const fetchStarted = clock.now()
    const seconds = () => (clock.now() - fetchStarted) / 1000
    let read: { readonly answered: Response; readonly body: string }
    try {
      const answered = await fetch(url, init)
      const body = await keySetBody(answered, limits.maxBytes)
      results.fetched(keySetIn(body, limits.maxKeys))
      read = { answered, body }
    } catch (error) {
      admission.failed(error)
      results.failed(error)
      observer.keySetFetched('failed', seconds())
      throw error
    }
    // Reported outside the fetch's guard: an observer that throws is not a failed fetch.
    observer.keySetFetched('ok', seconds())
    return new Response(read.body, { status: 200, statusText: read.answered.statusText, headers: read.answered.headers })
  }
}

// Read with a bound, as it arrives (after any content coding is undone).
const keySetBody = async (answered: Response, maxBytes: number): Promise<string> => {
  if (answered.status !== 200) {
    void answered.body?.cancel().catch(() => undefined)
    throw new Error(`the key set answered HTTP ${answered.status}`)
  }
  const body = await readBoundedBody(answered, maxBytes)
  if (E.isLeft(body)) throw new Error(`the key set is larger than ${maxBytes} bytes`)
  return new TextDecoder().decode(body.right)
}

// The shape jose accepts as a key set (a JSON object whose `keys` is an array of objects), with
// no more keys than allowed.
const keySetIn = (body: string, maxKeys: number): JSONWebKeySet => {
  const keys = keysIn(body)
  if (keys === undefined) throw new Error('the key set URL answered 200 with something that is not a JSON Web Key Set')
  if (keys.length > maxKeys) throw new Error(`the key set holds ${keys.length} keys, more than ${maxKeys}`)
  return { keys }
}

const keysIn = (body: string): JSONWebKeySet['keys'] | undefined => {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null || !('keys' in parsed)) return undefined
  const keys: unknown = parsed.keys
  return Array.isArray(keys) && keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key))
    ? (keys as JSONWebKeySet['keys'])
    : undefined
}
