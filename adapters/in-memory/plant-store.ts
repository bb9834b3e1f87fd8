import * as TE from 'fp-ts/lib/TaskEither.js'
import { alreadyStored, inserted, type NewPlant, type PlantId, type PlantStore } from '../../core/index.js'

/**
 * A plant store in process memory, for tests, development and embedders that need no durability.
 * Check-and-insert runs in one synchronous step, so concurrent creates of one id cannot both win.
 */
export const makeInMemoryPlantStore = (): PlantStore => {
  const plants = new Map<PlantId, NewPlant>()
  return {
    insertUnlessExists: (plant) =>
      TE.fromTask(async () => {
        const stored = plants.get(plant.id)
        if (stored !== undefined) return alreadyStored(stored)
        const copy = Object.freeze({ ...plant })
        plants.set(plant.id, copy)
        return inserted(copy)
      }),
    checkReady: () => TE.right(undefined),
  }
}
