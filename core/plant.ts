import * as t from 'io-ts'
import { Int64 } from './int64.js'
import { WellFormedString } from './well-formed-string.js'

/** Identification number of a plant: an int64, unique in the store. */
export const PlantId = Int64
export type PlantId = Int64

export const PlantName = WellFormedString
export type PlantName = WellFormedString

/** Free text that says what kind of plant this is. */
export const PlantTag = WellFormedString
export type PlantTag = WellFormedString

const RequiredFields = t.type({ id: PlantId, name: PlantName })
const OptionalFields = t.partial({ tag: PlantTag })
const NewPlantFields = t.exact(t.intersection([RequiredFields, OptionalFields]), 'NewPlant')

/**
 * The request shape: what a client sends to create a plant. Undeclared fields are dropped. Only
 * the input's own fields count, and a field set to `undefined` counts as absent: io-ts alone would
 * read fields inherited from a prototype, and keep `tag: undefined` as a key.
 *
 * It validates as `NewPlantFields` would (the same failures, messages and contexts), written out
 * by hand because it runs on every request: the generic codecs copied the input's entries, merged
 * the intersection's halves and stripped keys, paying for each on the way to a three-field object.
 */
export const NewPlant = new t.Type<t.TypeOf<typeof NewPlantFields>, t.OutputOf<typeof NewPlantFields>, unknown>(
  'NewPlant',
  NewPlantFields.is,
  (u, c) => {
    if (!isRecord(u)) return t.failure(u, c, 'a JSON object')
    const fields = ownDefinedFields(u)
    if (fields === undefined) return t.failure(u, c, 'an object whose fields can be read')
    const { id, name, tag } = fields
    if (PlantId.is(id) && PlantName.is(name) && (tag === undefined || PlantTag.is(tag))) {
      return t.success(tag === undefined ? { id, name } : { id, name, tag })
    }
    return t.failures(fieldErrors(fields, c))
  },
  NewPlantFields.encode,
)
export type NewPlant = t.TypeOf<typeof NewPlant>

interface Fields {
  id?: unknown
  name?: unknown
  tag?: unknown
}

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u)

// Reading the fields of an embedder's object can run its getters, or trap on a revoked Proxy:
// such an input is refused as a value, never thrown out of the codec. Every own field is read
// once, in order, as Object.entries reads them; only the three declared ones are kept.
const ownDefinedFields = (u: Record<string, unknown>): Fields | undefined => {
  let entries: Array<[string, unknown]>
  try {
    entries = Object.entries(u)
  } catch {
    return undefined
  }
  const fields: Fields = {}
  for (const [key, value] of entries) {
    if (value === undefined) continue
    if (key === 'id') fields.id = value
    else if (key === 'name') fields.name = value
    else if (key === 'tag') fields.tag = value
  }
  return fields
}

// The failures, in the order and with the contexts the intersection of `RequiredFields` and
// `OptionalFields` reports them, so `toViolations` names the same paths.
const fieldErrors = (fields: Fields, c: t.Context): t.Errors => {
  const required = t.appendContext(c, '0', RequiredFields, fields)
  const optional = t.appendContext(c, '1', OptionalFields, fields)
  const errors: t.ValidationError[] = []
  const check = (result: t.Validation<unknown>): void => {
    if (result._tag === 'Left') errors.push(...result.left)
  }
  check(PlantId.validate(fields.id, t.appendContext(required, 'id', PlantId, fields.id)))
  check(PlantName.validate(fields.name, t.appendContext(required, 'name', PlantName, fields.name)))
  if (fields.tag !== undefined) check(PlantTag.validate(fields.tag, t.appendContext(optional, 'tag', PlantTag, fields.tag)))
  return errors
}

/** The response shape: a plant as the store shows it, without its id. */
export const Plant = t.exact(
  t.intersection([t.type({ name: PlantName }), t.partial({ tag: PlantTag })]),
  'Plant',
)
export type Plant = t.TypeOf<typeof Plant>

/** What a client sees of a stored plant. */
export const toPlant = ({ name, tag }: NewPlant): Plant => (tag === undefined ? { name } : { name, tag })

/** Whether two plants under one id say the same thing, so a repeated create is a replay. */
export const isSamePlant = (a: NewPlant, b: NewPlant): boolean =>
  a.id === b.id && a.name === b.name && a.tag === b.tag
