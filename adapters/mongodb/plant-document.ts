import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as t from 'io-ts'
import { PlantId, PlantName, PlantTag, type NewPlant } from '../../core/index.js'

/**
 * How a plant is kept in MongoDB: the plant id is the document's `_id`, a BSON int64 (a `bigint`
 * on the way in and, with the client's `useBigInt64`, on the way out), so the unique `_id` index
 * is what makes an id taken.
 */
export const PlantDocument = t.exact(
  t.intersection([t.type({ _id: PlantId, name: PlantName }), t.partial({ tag: PlantTag })]),
  'PlantDocument',
)
export type PlantDocument = t.TypeOf<typeof PlantDocument>

/**
 * The largest request body whose plant is sure to fit in one MongoDB document (mongod's
 * `maxBsonObjectSize`, 16 MiB). A plant's document is its JSON text's strings as they are, an
 * 8-byte id and 39 bytes of framing: never more than 16 bytes over the shortest JSON that holds the
 * same plant, and escapes only make the JSON longer. A KiB below the limit leaves room to spare.
 */
export const MAX_PLANT_BODY_BYTES = 16 * 1024 * 1024 - 1024

/** The document that stores a plant. */
export const toPlantDocument = ({ id, name, tag }: NewPlant): PlantDocument =>
  tag === undefined ? { _id: id, name } : { _id: id, name, tag }

/**
 * The plant a stored document holds, or the reasons it holds none. A document this adapter did
 * not write may have been written with the `_id` as a 32-bit integer or a double; such an id is
 * taken when it is an integer a double holds exactly.
 */
export const fromPlantDocument = (stored: unknown): E.Either<t.Errors, NewPlant> =>
  pipe(
    PlantDocument.decode(withExactIntegerId(stored)),
    E.map(({ _id, name, tag }) => (tag === undefined ? { id: _id, name } : { id: _id, name, tag })),
  )

const withExactIntegerId = (stored: unknown): unknown => {
  if (typeof stored !== 'object' || stored === null || !('_id' in stored)) return stored
  const id = stored._id
  return typeof id === 'number' && Number.isSafeInteger(id) ? { ...stored, _id: BigInt(id) } : stored
}

