import * as t from 'io-ts'

export interface WellFormedStringBrand {
  readonly WellFormedString: unique symbol
}

/** A string with no lone surrogate: it can be encoded as UTF-8 and read back unchanged. */
export type WellFormedString = t.Branded<string, WellFormedStringBrand>

const isWellFormedString = (u: unknown): u is WellFormedString =>
  typeof u === 'string' && u.isWellFormed()

export const WellFormedString = new t.Type<WellFormedString, string, unknown>(
  'WellFormedString',
  isWellFormedString,
  (u, c) =>
    typeof u !== 'string'
      ? t.failure(u, c, 'a string')
      : u.isWellFormed()
        ? t.success(u as WellFormedString)
        : t.failure(u, c, 'a string of well-formed Unicode (no lone surrogate)'),
  (s) => s,
)
