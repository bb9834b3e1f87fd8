import type { JSONWebKeySet } from 'jose'
import * as E from 'fp-ts/lib/Either.js'
import type { Clock } from '../../core/index.js'
import { readBoundedBody } from '../../wire/index.js'
import { errors } from './peers.js'

/**
 * Why the key set is wanted: a token names a key the set does not hold (`unknownKey`), or the keys
 * are to be refreshed (`refresh`: none are held yet, they are older than the cache's age, or the
 * refresh timer's turn has come).
 */
export type FetchReason = 'unknownKey' | 'refresh'

/** How often the provider may be asked. */
export interface FetchRate {
  readonly cooldownMs: number
  readonly maxPerMinute: number
}

/** When the provider may be asked, kept as fetches start and end. */
export interface FetchAdmission {
  /** Why a fetch wanted for `reason` may not start now, or `undefined` when it may; a fetch admitted is counted as started. */
  readonly refusal: (reason: FetchReason) => Error | undefined
  /** The fetch admitted last has ended: failed, with why, or answered a key set when `failure` is absent. */
  readonly ended: (failure?: { readonly error: unknown }) => void
}

/**
 * The rule of when the provider may be asked: a fetch may start unless one failed less than
 * `cooldownMs` ago, or it is for a key the set does not hold and one ended less than `cooldownMs`
 * ago, or `maxPerMinute` started in the last 60 s. Times are the clock's `now()`.
 */
export const fetchAdmission = ({ cooldownMs, maxPerMinute }: FetchRate, clock: Clock): FetchAdmission => {
  let lastEnded: number | undefined
  let lastFailure: { readonly at: number; readonly error: unknown } | undefined
  const started: number[] = []
  return {
    refusal: (reason) => {
      const now = clock.now()
      if (lastFailure !== undefined && now - lastFailure.at < cooldownMs) {
        return new Error(`the key set failed less than ${cooldownMs} ms ago; not asking again yet`, { cause: lastFailure.error })
      }
      if (reason === 'unknownKey' && lastEnded !== undefined && now - lastEnded < cooldownMs) {
        return new Error(`the key set was fetched less than ${cooldownMs} ms ago; not asking again yet`)
      }
      while (started.length > 0 && now - (started[0] ?? now) >= 60_000) started.shift()
      if (started.length >= maxPerMinute) return new Error(`the key set was fetched ${maxPerMinute} times in the last minute; not asking again yet`)
      started.push(now)
      return undefined
    },
    ended: (failure) => {
      lastEnded = clock.now()
      if (failure !== undefined) lastFailure = { at: lastEnded, error: failure.error }
    },
  }
}

/** How one fetch of the key set is given up on, and how much of its answer is read. */
export interface KeySetRead {
  readonly timeoutMs: number
  readonly maxBytes: number
  readonly maxKeys: number
}

/** What makes a request: the platform's `fetch`, or a model of the provider in a test. */
export type Requester = (url: URL, init: RequestInit) => Promise<Response>

/**
 * One fetch of the key set at `url`: a GET, redirects not followed, given up `timeoutMs` after it
 * started (on `clock`, the body's read included: a `JWKSTimeout`). It fails on an error, a status
 * other than 200, or a body that is larger than `maxBytes` (read as it arrives, after any content
 * coding is undone), holds more than `maxKeys` keys or is not a JSON Web Key Set.
 */
export const fetchKeySet = async (url: URL, { timeoutMs, maxBytes, maxKeys }: KeySetRead, clock: Clock, request: Requester): Promise<JSONWebKeySet> => {
  const timeout = new AbortController()
  const cancelTimeout = clock.setTimer(timeoutMs, () => timeout.abort(new errors.JWKSTimeout(`the key set did not answer within ${timeoutMs} ms`)))
  try {
    const answered = await request(url, {
      method: 'GET',
      redirect: 'manual',
      headers: { accept: 'application/json, application/jwk-set+json' },
      signal: timeout.signal,
    })
    return keySetIn(await keySetBody(answered, maxBytes), maxKeys)
  } finally {
    cancelTimeout()
  }
}

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
