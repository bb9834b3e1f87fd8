import * as TE from 'fp-ts/lib/TaskEither.js'
import * as E from 'fp-ts/lib/Either.js'
import {
  alreadyStored,
  inserted,
  PlantId,
  storageFull,
  type InsertOutcome,
  type NewPlant,
  type PlantStore,
  type StoreError,
} from '../../core/index.js'
import { makeIdTable } from './id-table.js'
import { makePlantRecords, RECORD_BYTES } from './plant-records.js'
import { BYTES_PER_UNIT } from './text-chunks.js'
import { wholeNumberOption } from '../../wire/index.js'

/** The in-memory store, plus a look inside (copies) for tests that assert on stored state. */
export interface InMemoryPlantStore extends PlantStore {
  /** The plant stored under an id, if any. */
  readonly find: (id: PlantId | bigint) => NewPlant | undefined
  /** Every stored plant, in insertion order. */
  readonly all: () => ReadonlyArray<NewPlant>
}

/**
 * How much the store may hold; a new plant past either bound is refused with StorageFull, so a
 * client cannot grow the process until it dies (and takes every stored plant with it). Each is a
 * whole number (0 makes a store that is always full, for a test of that answer):
 * `makeInMemoryPlantStore` throws a RangeError naming one that is not.
 */
export interface InMemoryLimits {
  readonly maxPlants: number
  /** The estimated bytes of the stored plants (see `estimatedBytes`). */
  readonly maxBytes: number
}

export const DEFAULT_IN_MEMORY_LIMITS: InMemoryLimits = { maxPlants: 100_000, maxBytes: 64 * 1024 * 1024 }

/**
 * What one plant costs the store, on the safe side: its name and tag at 2 bytes per UTF-16 code
 * unit (as the store keeps them), plus its record and its share of the id table. The store keeps
 * no heap object per plant (see `makeInMemoryPlantStore`): this memory is in a few large buffers.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { newPlant } from 'plant-store/core'
 * import { estimatedBytes } from 'plant-store/adapters/in-memory'
 *
 * const plant = newPlant({ id: 1n, name: 'Fern' })
 * if (E.isRight(plant)) console.log(estimatedBytes(plant.right)) // what it counts against maxBytes
 * ```
 */
export const estimatedBytes = ({ name, tag }: NewPlant): number =>
  BYTES_PER_UNIT * (name.length + (tag?.length ?? 0)) + PER_PLANT_BYTES

// The record, and at most 32 bytes of id table (12 bytes a slot, and a shard that has grown is at
// least 3/8 full), rounded up.
const PER_PLANT_BYTES = RECORD_BYTES + 40

const WHERE = 'makeInMemoryPlantStore'

/**
 * A plant store in process memory, for tests, development and embedders that need no durability.
 * Check-and-insert runs in one synchronous step, so concurrent creates of one id cannot both win.
 * A replay is answered whatever the bounds: only a new plant can find the store full.
 *
 * It holds its plants in typed arrays and shared text buffers, never as an object, a bigint and
 * strings per plant: a million plants would be millions of heap objects for every major
 * collection to mark, a pause growing with the store, and one hash map rehashes every entry each
 * time it doubles. Its growth steps stay small: a shard of the id table, a block of records, a
 * buffer of text.
 *
 * @example
 * ```ts
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 *
 * const store = makeInMemoryPlantStore({ maxPlants: 100_000, maxBytes: 64 * 1024 * 1024 })
 * ```
 */
export const makeInMemoryPlantStore = (limits: Partial<InMemoryLimits> = {}): InMemoryPlantStore => {
  // Field by field: a limit given as `undefined` (from JavaScript, say) keeps its default, not no bound.
  const maxPlants = wholeNumberOption(WHERE, 'maxPlants', limits.maxPlants ?? DEFAULT_IN_MEMORY_LIMITS.maxPlants, 0)
  const maxBytes = wholeNumberOption(WHERE, 'maxBytes', limits.maxBytes ?? DEFAULT_IN_MEMORY_LIMITS.maxBytes, 0)
  const ids = makeIdTable()
  const records = makePlantRecords()
  let bytes = 0
  const fullFor = (size: number): string | undefined => {
    if (records.count() >= maxPlants) return `${maxPlants} plants`
    if (bytes + size > maxBytes) return `${maxBytes} bytes`
    return undefined
  }
  const insertNow = (plant: NewPlant): E.Either<StoreError, InsertOutcome> => {
    const { id, name, tag } = plant
    // A plant that is not one is a defect: thrown, it rejects the task, and nothing is stored.
    if (!PlantId.is(id) || typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string')) {
      throw new TypeError('the in-memory store was handed something that is not a NewPlant')
    }
    const stored = ids.get(id)
    if (stored !== -1) return E.right(alreadyStored(records.plantAt(stored)))
    const size = estimatedBytes(plant)
    const full = fullFor(size)
    if (full !== undefined) return E.left(storageFull(full))
    ids.add(id, records.append(plant))
    bytes += size
    return E.right(inserted((tag === undefined ? { id, name } : { id, name, tag }) as NewPlant))
  }
  return {
    // The check-and-insert runs when the task runs, as the port asks; a defect thrown there
    // rejects the task. A bare promise executor does both without the layers of TE.fromIOEither.
    insertUnlessExists: (plant) => () => new Promise((resolve) => resolve(insertNow(plant))),
    checkReady: () => TE.right(undefined),
    find: (id) => {
      if (!PlantId.is(id)) return undefined
      const stored = ids.get(id)
      return stored === -1 ? undefined : records.plantAt(stored)
    },
    all: () => Array.from({ length: records.count() }, (_, record) => records.plantAt(record)),
  }
}
