import type * as t from 'io-ts'
import type { Violation } from './errors.js'

/**
 * Turns io-ts decode errors into violations a client can act on: the field path and what was
 * expected. Unlike io-ts's PathReporter it never repeats the submitted value, which may be large
 * or private.
 */
export const toViolations = (errors: t.Errors): ReadonlyArray<Violation> => {
  const seen = new Set<string>()
  const violations: Violation[] = []
  for (const error of errors) {
    const path = pathOf(error.context)
    const expected = error.message ?? describeExpected(error.context)
    const key = `${path}\u0000${expected}`
    if (!seen.has(key)) {
      seen.add(key)
      violations.push({ path, expected })
    }
  }
  return violations
}

// io-ts puts wrappers (exact, intersection members) into the context too; only the keys of an
// object codec name a field the client sent.
const pathOf = (context: t.Context): string =>
  context
    .filter((_entry, index) => index > 0 && isObjectCodec(context[index - 1]?.type))
    .map((entry) => entry.key)
    .join('.')

const isObjectCodec = (type: t.Decoder<unknown, unknown> | undefined): boolean => {
  const tag = (type as { _tag?: string } | undefined)?._tag
  return tag === 'InterfaceType' || tag === 'PartialType'
}

const describeExpected = (context: t.Context): string => {
  const last = context[context.length - 1]
  if (last === undefined) return 'a value'
  const name = last.type.name
  if (last.key === '' && context.length === 1) return 'a JSON object'
  return name === 'string' ? 'a string' : name
}
