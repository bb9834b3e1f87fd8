import type * as t from 'io-ts'
import type { Violation } from './errors.js'

/**
 * Turns io-ts decode errors into violations a client can act on: the field path, what was
 * expected, and whether the field was missing. Unlike io-ts's PathReporter it never repeats the
 * submitted value, which may be large or private: of the value it tells only that there was none.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import * as t from 'io-ts'
 * import { toViolations } from 'plant-store/core'
 *
 * const decoded = t.type({ name: t.string }).decode({ name: 7 })
 * if (E.isLeft(decoded)) console.log(toViolations(decoded.left)) // [{ path: 'name', expected: 'a string' }]
 * ```
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
      violations.push(path !== '' && error.value === undefined ? { path, expected, missing: true } : { path, expected })
    }
  }
  return violations
}

interface CodecShape {
  readonly _tag?: string
  readonly type?: CodecShape
}

const shapeOf = (decoder: t.Decoder<unknown, unknown> | undefined): CodecShape | undefined =>
  decoder as CodecShape | undefined

// io-ts puts wrappers (intersection and union members, under keys "0", "1") into the context
// too; only the keys of a codec that reads fields or elements name something the client sent.
const pathOf = (context: t.Context): string =>
  context
    .filter((_entry, index) => index > 0 && readsChildren(shapeOf(context[index - 1]?.type)))
    .map((entry) => entry.key)
    .join('.')

const CONTAINERS = new Set(['InterfaceType', 'PartialType', 'StrictType', 'ArrayType', 'ReadonlyArrayType', 'TupleType', 'DictionaryType'])
// These validate through the codec they wrap, without an entry of its own in the context.
const WRAPPERS = new Set(['ExactType', 'ReadonlyType', 'RefinementType'])

const readsChildren = (shape: CodecShape | undefined): boolean => {
  const tag = shape?._tag
  if (tag === undefined) return false
  if (CONTAINERS.has(tag)) return true
  return WRAPPERS.has(tag) && readsChildren(shape?.type)
}

const OBJECT_CODECS = new Set([...CONTAINERS, 'IntersectionType', 'UnknownRecordType'])

const describeExpected = (context: t.Context): string => {
  const last = context[context.length - 1]
  if (last === undefined) return 'a value'
  return describeShape(shapeOf(last.type)) ?? last.type.name
}

const describeShape = (shape: CodecShape | undefined): string | undefined => {
  const tag = shape?._tag
  if (tag === undefined) return undefined
  if (WRAPPERS.has(tag)) return describeShape(shape?.type)
  if (tag === 'ArrayType' || tag === 'ReadonlyArrayType' || tag === 'UnknownArrayType' || tag === 'TupleType') return 'an array'
  if (OBJECT_CODECS.has(tag)) return 'a JSON object'
  if (tag === 'StringType') return 'a string'
  if (tag === 'NumberType') return 'a number'
  if (tag === 'BooleanType') return 'a boolean'
  return undefined
}
