import * as TE from 'fp-ts/lib/TaskEither.js'
import { alreadyStored, inserted, type NewPlant, type PlantId, type PlantStore } from '../../core/index.js'

/** The in-memory store, plus a look inside (copies) for tests that assert on stored state. */
export interface InMemoryPlantStore extends PlantStore {
  /** The plant stored under an id, if any. */
  readonly find: (id: PlantId | bigint) => NewPlant | undefined
  /** Every stored plant, in insertion order. */
  readonly all: () => ReadonlyArray<NewPlant>
}

/**
 * A plant store in process memory, for tests, development and embedders that need no durability.
 * Check-and-insert runs in one synchronous step, so concurrent creates of one id cannot both win.
 */
export const makeInMemoryPlantStore = (): InMemoryPlantStore => {
  const plants = new Map<bigint, NewPlant>()
  return {
    insertUnlessExists: (plant) =>
      TE.fromTask(async () => {
        const stored = plants.get(plant.id)
        if (stored !== undefined) return alreadyStored(stored)
        // A copy, so the caller's object cannot change what is stored. Not frozen: freezing makes
        // V8 keep each plant in a slower, larger shape (about twice the bytes, `npm run bench`).
        const copy = { ...plant }
        plants.set(plant.id, copy)
        return inserted(copy)
      }),
    checkReady: () => TE.right(undefined),
    find: (id) => {
      const stored = plants.get(id)
      return stored === undefined ? undefined : { ...stored }
    },
    all: () => [...plants.values()].map((stored) => ({ ...stored })),
  }
}
