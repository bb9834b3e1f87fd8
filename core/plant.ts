import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
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

const NewPlantFields = t.exact(
  t.intersection([t.type({ id: PlantId, name: PlantName }), t.partial({ tag: PlantTag })]),
  'NewPlant',
)

// io-ts's way to wrap a codec: a subclass of `t.Type` naming its kind in `_tag` and keeping the
// codec it reads with in `type`, as `t.exact` and `t.readonly` do, so a reader of the codec's
// structure (the OpenAPI document's schemas, the client's writer) sees the fields through it.
class OwnFieldsType<C extends t.Mixed> extends t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown> {
  readonly _tag = 'OwnFieldsType' as const
  constructor(
    name: string,
    readonly type: C,
  ) {
    super(
      name,
      type.is,
      (u, c) =>
        pipe(
          ownDefinedFields(u),
          E.matchW(
            (expected) => t.failure(u, c, expected),
            (fields) => type.validate(fields, c),
          ),
        ),
      type.encode,
    )
  }
}

/**
 * The request shape: what a client sends to create a plant. Undeclared fields are dropped. Only
 * the input's own fields count, and a field set to `undefined` counts as absent: io-ts alone would
 * read fields inherited from a prototype, and keep `tag: undefined` as a key.
 */
export const NewPlant: t.Type<t.TypeOf<typeof NewPlantFields>, t.OutputOf<typeof NewPlantFields>, unknown> = new OwnFieldsType(
  'NewPlant',
  NewPlantFields,
)
export type NewPlant = t.TypeOf<typeof NewPlant>

// Reading the fields of an embedder's object can run its getters, or trap on a revoked Proxy
// (even asking whether it is an array does): such an input is refused as a value, never thrown
// out of the codec.
const ownDefinedFields = (u: unknown): E.Either<string, Record<string, unknown>> => {
  if (typeof u !== 'object' || u === null) return E.left(A_JSON_OBJECT)
  try {
    return Array.isArray(u)
      ? E.left(A_JSON_OBJECT)
      : E.right(Object.fromEntries(Object.entries(u).filter(([, value]) => value !== undefined)))
  } catch {
    return E.left('an object whose fields can be read')
  }
}

const A_JSON_OBJECT = 'a JSON object'

/** The response shape: a plant as the store shows it, without its id. */
export const Plant = t.exact(
  t.intersection([t.type({ name: PlantName }), t.partial({ tag: PlantTag })]),
  'Plant',
)
export type Plant = t.TypeOf<typeof Plant>

/**
 * What a client sees of a stored plant.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { newPlant, toPlant } from 'plant-store/core'
 *
 * const plant = newPlant({ id: 1n, name: 'Fern' })
 * if (E.isRight(plant)) console.log(toPlant(plant.right)) // { name: 'Fern' }
 * ```
 */
export const toPlant = ({ name, tag }: NewPlant): Plant => (tag === undefined ? { name } : { name, tag })

/**
 * Whether two plants under one id say the same thing, so a repeated create is a replay.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { isSamePlant, newPlant } from 'plant-store/core'
 *
 * const sent = newPlant({ id: 1n, name: 'Fern' })
 * const stored = newPlant({ id: 1n, name: 'Fern', tag: 'outdoor' })
 * if (E.isRight(sent) && E.isRight(stored)) console.log(isSamePlant(sent.right, stored.right)) // false: a conflict
 * ```
 */
export const isSamePlant = (a: NewPlant, b: NewPlant): boolean =>
  a.id === b.id && a.name === b.name && a.tag === b.tag
