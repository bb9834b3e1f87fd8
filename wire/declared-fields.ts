import type * as t from 'io-ts'

/** One field a record codec declares: its name, its codec, and whether a value must have it. */
export interface DeclaredField {
  readonly name: string
  readonly codec: t.Mixed
  readonly required: boolean
}

// io-ts's combinators keep what they combine: `props` for a record, `types` for an intersection,
// `type` for a codec that wraps one (`t.exact`, `t.readonly`, and the core's own-fields reader).
interface CodecStructure {
  readonly _tag?: string
  readonly name: string
  readonly props?: Readonly<Record<string, t.Mixed>>
  readonly types?: ReadonlyArray<t.Mixed>
  readonly type?: t.Mixed
}

const WRAPPERS = new Set(['ExactType', 'ReadonlyType', 'OwnFieldsType'])

/**
 * The fields a record codec declares, in the order it declares them, read from io-ts's own
 * structure: the fields of `t.type` are required, those of `t.partial` optional, through
 * `t.exact`, `t.readonly` and `t.intersection`. What is written from a codec this way (the
 * OpenAPI schemas, the client's JSON text) changes when the codec does. Any other shape throws:
 * a refinement or a union would be a rule this reading cannot carry.
 */
export const declaredFields = (codec: t.Mixed): ReadonlyArray<DeclaredField> => {
  const structure = codec as unknown as CodecStructure
  switch (structure._tag) {
    case 'InterfaceType':
    case 'StrictType':
      return fieldsOf(structure, true)
    case 'PartialType':
      return fieldsOf(structure, false)
    case 'IntersectionType':
      return (structure.types ?? []).flatMap(declaredFields)
    default:
      if (structure._tag !== undefined && WRAPPERS.has(structure._tag) && structure.type !== undefined) return declaredFields(structure.type)
      throw new TypeError(`declaredFields: ${structure.name} is not a record of fields (t.type, t.partial, t.exact, t.readonly, t.intersection)`)
  }
}

const fieldsOf = ({ props = {} }: CodecStructure, required: boolean): ReadonlyArray<DeclaredField> =>
  Object.entries(props).map(([name, codec]) => ({ name, codec, required }))
