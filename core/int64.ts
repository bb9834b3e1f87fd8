import * as t from 'io-ts'

export interface Int64Brand {
  readonly Int64: unique symbol
}

/** A signed 64-bit integer, carried as a `bigint` because a JS number cannot hold every int64. */
export type Int64 = t.Branded<bigint, Int64Brand>

export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n

const isInt64 = (u: unknown): u is Int64 => typeof u === 'bigint' && u >= INT64_MIN && u <= INT64_MAX

// An integral JS number is most likely an id written as a number: the embedder needs to hear that
// it must be a bigint, not only the range. Parsed JSON rarely brings one here (the HTTP adapter
// reads integers as bigints; only a fraction such as 1.0000000000000000001 rounds to an integral
// double), and the message still starts with what an HTTP client needs to read.
const isIntegralNumber = (u: unknown): boolean => typeof u === 'number' && Number.isInteger(u)

const expectedOf = (u: unknown): string =>
  isIntegralNumber(u)
    ? `an integer from ${INT64_MIN} to ${INT64_MAX} as a bigint, not a JS number (above 2^53 a number may already be rounded)`
    : `an integer from ${INT64_MIN} to ${INT64_MAX}`

/**
 * Accepts a `bigint` in the int64 range. A JS `number` is refused on purpose: by the time an id
 * is a double it may already have been rounded, and accepting it would store the wrong plant.
 */
export const Int64 = new t.Type<Int64, bigint, unknown>(
  'Int64',
  isInt64,
  (u, c) => (isInt64(u) ? t.success(u) : t.failure(u, c, expectedOf(u))),
  (id) => id,
)
