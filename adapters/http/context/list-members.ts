import * as O from 'fp-ts/lib/Option.js'

/**
 * How much of a list field (RFC 9110 section 5.6.1: `Accept-Encoding`, `If-None-Match`, `Expect`,
 * `Content-Encoding`) the service reads: its first 512 characters. The lists clients send are a
 * few dozen characters; read whole, one as long as the 16 KiB header limit lets it be cost a
 * request many times its own CPU, and any client may send one without a token.
 */
export const LIST_FIELD_READ_LIMIT = 512

const COMMA = 0x2c
const SPACE = 0x20
const TAB = 0x09

const isOws = (code: number): boolean => code === SPACE || code === TAB

/**
 * Folds over the members of a list field that lie whole within its first LIST_FIELD_READ_LIMIT
 * characters, in order, each trimmed of optional whitespace; empty members are skipped, as RFC
 * 9110 asks. The member the bound cuts, and those after it, are not read: a field says nothing
 * past the bound. A member that is not well-formed for its field is ignored by the field's
 * reader, as if it had not been sent. The field is read a character at a time and only members
 * are copied, so no reader can come to scan the whole of a long field by accident.
 */
export const foldListMembers = <A>(field: string, initial: A, step: (read: A, member: string) => A): A => {
  const cut = field.length > LIST_FIELD_READ_LIMIT
  const end = cut ? LIST_FIELD_READ_LIMIT : field.length
  let read = initial
  let start = 0
  for (let index = 0; index <= end; index += 1) {
    if (index < end && field.charCodeAt(index) !== COMMA) continue
    if (index === end && cut) break
    let first = start
    let last = index
    while (first < last && isOws(field.charCodeAt(first))) first += 1
    while (last > first && isOws(field.charCodeAt(last - 1))) last -= 1
    if (last > first) read = step(read, field.slice(first, last))
    start = index + 1
  }
  return read
}

/**
 * The one member of a field that may hold only one (`Expect: 100-continue`, `Content-Encoding:
 * gzip`): '' for a field with none, undefined for one with several or one too long to read whole,
 * since a member the reader did not see could be one it must refuse.
 */
export const soleListMember = (field: string): string | undefined =>
  field.length > LIST_FIELD_READ_LIMIT
    ? undefined
    : foldListMembers<string | undefined>(field, '', (sole, member) => (sole === '' ? member : undefined))

/** A member of a weighted list (`Accept-Encoding`): its name, in lower case, and its weight. */
export interface WeightedMember {
  readonly name: string
  readonly weight: number
}

// RFC 9110 sections 12.4.2 and 12.5.3: a token, then at most one weight: `;`, with optional
// whitespace around it, `q=` (`q` in any case) and a qvalue, 0 to 1 with at most three decimals.
const WEIGHTED_MEMBER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:[ \t]*;[ \t]*[qQ]=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?))?$/

/**
 * A member of a weighted list with its weight, 1 when it names none; none for a member that is
 * not well-formed (`br;q=NaN`, `br;q=2`, `br;q=0.1234`, `br;q=-1`, a second weight or another
 * parameter). Such a member is ignored rather than given a weight the client did not write: read
 * as 1, `br;q=NaN` would outweigh every coding the client had weighted.
 */
export const weightedMember = (member: string): O.Option<WeightedMember> => {
  const match = WEIGHTED_MEMBER.exec(member)
  const name = match?.[1]
  if (match === null || name === undefined) return O.none
  const weight = match[2]
  return O.some({ name: name.toLowerCase(), weight: weight === undefined ? 1 : Number(weight) })
}
