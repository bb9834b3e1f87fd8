import * as t from 'io-ts'

export interface Int32Brand {
  readonly Int32: unique symbol
}
export type Int32 = t.Branded<number, Int32Brand>

export const Int32 = t.brand(
  t.number,
  (n): n is Int32 => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  'Int32',
)

/** The Error document of the spec: `error` is the HTTP status, `message` says what to fix. */
export const ErrorDocument = t.exact(t.type({ error: Int32, message: t.string }), 'ErrorDocument')
export type ErrorDocument = t.TypeOf<typeof ErrorDocument>
