// Reading BSON values that keep their wire types (Int32, Long, Double wrappers), and comparing
// them the way mongod's unique index and equality match do: numbers compare by value across
// int32, int64 and double, so `_id: 5` and `_id: NumberLong(5)` are one key.
import { Binary, Double, EJSON, Int32, Long, ObjectId, type Document } from 'bson'

/** A numeric BSON value as a JS number, or undefined when it is not numeric. */
export const numberOf = (value: unknown): number | undefined => {
  if (typeof value === 'number') return value
  if (typeof value === 'bigint') return Number(value)
  if (value instanceof Int32 || value instanceof Double) return value.valueOf()
  if (value instanceof Long) return value.toNumber()
  return undefined
}

/** A string that is equal for two values exactly when mongod would call them equal. */
export const keyOf = (value: unknown): string => {
  const integer = integerOf(value)
  if (integer !== undefined) return `int:${integer}`
  const number = numberOf(value)
  if (number !== undefined) return `num:${number}`
  if (typeof value === 'string') return `str:${value}`
  if (value instanceof ObjectId) return `oid:${value.toHexString()}`
  if (value instanceof Binary) return `bin:${value.sub_type}:${Buffer.from(value.buffer).toString('hex')}`
  return `bson:${EJSON.stringify({ v: value } as Document, { relaxed: false })}`
}

const integerOf = (value: unknown): bigint | undefined => {
  if (value instanceof Long) return value.toBigInt()
  if (typeof value === 'bigint') return value
  const number = numberOf(value)
  return number !== undefined && Number.isInteger(number) ? BigInt(number) : undefined
}

/** How mongod prints a value inside an error message, near enough for a person to read. */
export const showValue = (value: unknown): string => {
  const integer = integerOf(value)
  if (integer !== undefined) return String(integer)
  if (typeof value === 'string') return JSON.stringify(value)
  return EJSON.stringify({ v: value } as Document).slice(5, -1)
}
