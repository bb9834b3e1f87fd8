import * as t from 'io-ts'

export interface Int64Brand {
  readonly Int64: unique symbol
}

/** A signed 64-bit integer, carried as a `bigint` because a JS number cannot hold every int64. */
export type Int64 = t.Branded<bigint, Int64Brand>

export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n

const isInt64 = (u: unknown): u is Int64 => typeof u === 'bigint' && u >= INT64_MIN && u <= INT64_MAX

/**
 * Accepts a `bigint` in the int64 range. A JS `number` is refused on purpose: by the time an id
 * is a double it may already have been rounded, and accepting it would store the wrong plant.
 */
export const Int64 = new t.Type<Int64, bigint, unknown>(
  'Int64',
  isInt64,
  (u, c) => (isInt64(u) ? t.success(u) : t.failure(u, c, `an integer from ${INT64_MIN} to ${INT64_MAX}`)),
  (id) => id,
)
