import * as TE from 'fp-ts/lib/TaskEither.js'
import * as E from 'fp-ts/lib/Either.js'
import {
  alreadyStored,
  inserted,
  storageFull,
  type InsertOutcome,
  type NewPlant,
  type PlantId,
  type PlantStore,
  type StoreError,
} from '../../core/index.js'

/** The in-memory store, plus a look inside (copies) for tests that assert on stored state. */
export interface InMemoryPlantStore extends PlantStore {
  /** The plant stored under an id, if any. */
  readonly find: (id: PlantId | bigint) => NewPlant | undefined
  /** Every stored plant, in insertion order. */
  readonly all: () => ReadonlyArray<NewPlant>
}

/**
 * How much the store may hold; a new plant past either bound is refused with StorageFull, so a
 * client cannot grow the process until it dies (and takes every stored plant with it).
 */
export interface InMemoryLimits {
  readonly maxPlants: number
  /** The estimated heap bytes of the stored plants (see `estimatedBytes`). */
  readonly maxBytes: number
}

export const DEFAULT_IN_MEMORY_LIMITS: InMemoryLimits = { maxPlants: 100_000, maxBytes: 64 * 1024 * 1024 }

/**
 * What one plant costs the heap, estimated on the safe side: V8 keeps a string in 1 or 2 bytes
 * per UTF-16 code unit, counted here as 2, plus the map entry, the object and its bigint key.
 */
export const estimatedBytes = ({ name, tag }: NewPlant): number => 2 * (name.length + (tag?.length ?? 0)) + PER_PLANT_BYTES

const PER_PLANT_BYTES = 160

/**
 * A plant store in process memory, for tests, development and embedders that need no durability.
 * Check-and-insert runs in one synchronous step, so concurrent creates of one id cannot both win.
 * A replay is answered whatever the bounds: only a new plant can find the store full.
 */
export const makeInMemoryPlantStore = (limits: Partial<InMemoryLimits> = {}): InMemoryPlantStore => {
  // Field by field: a limit given as `undefined` (from JavaScript, say) keeps its default, not no bound.
  const maxPlants = limits.maxPlants ?? DEFAULT_IN_MEMORY_LIMITS.maxPlants
  const maxBytes = limits.maxBytes ?? DEFAULT_IN_MEMORY_LIMITS.maxBytes
  const plants = new Map<bigint, NewPlant>()
  let bytes = 0
  const fullFor = (size: number): string | undefined => {
    if (plants.size >= maxPlants) return `${maxPlants} plants`
    if (bytes + size > maxBytes) return `${maxBytes} bytes`
    return undefined
  }
  const insertNow = (plant: NewPlant): E.Either<StoreError, InsertOutcome> => {
    const stored = plants.get(plant.id)
    if (stored !== undefined) return E.right(alreadyStored(stored))
    const size = estimatedBytes(plant)
    const full = fullFor(size)
    if (full !== undefined) return E.left(storageFull(full))
    // A copy, so the caller's object cannot change what is stored. Not frozen: freezing makes
    // V8 keep each plant in a slower, larger shape (about twice the bytes, `npm run bench`).
    const copy = { ...plant }
    plants.set(plant.id, copy)
    bytes += size
    return E.right(inserted(copy))
  }
  return {
    // The check-and-insert runs when the task runs, as the port asks; a defect thrown there
    // rejects the task. A bare promise executor does both without the layers of TE.fromIOEither.
    insertUnlessExists: (plant) => () => new Promise((resolve) => resolve(insertNow(plant))),
    checkReady: () => TE.right(undefined),
    find: (id) => {
      const stored = plants.get(id)
      return stored === undefined ? undefined : { ...stored }
    },
    all: () => [...plants.values()].map((stored) => ({ ...stored })),
  }
}
