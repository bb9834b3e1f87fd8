// The README's example of a storage adapter of your own, verbatim; the package test proves it
// with the kit under node:test and under mocha.
import * as TE from 'fp-ts/lib/TaskEither.js'
import { alreadyStored, inserted, type NewPlant, type PlantStore } from 'plant-store/core'
import { plantStoreContract } from 'plant-store/testing'

export const makeMapPlantStore = (): PlantStore => {
  const plants = new Map<bigint, NewPlant>()
  return {
    // The look-up and the write are one synchronous step: no other insert runs between them.
    insertUnlessExists: (plant) =>
      TE.fromIO(() => {
        const stored = plants.get(plant.id)
        if (stored !== undefined) return alreadyStored(stored)
        plants.set(plant.id, plant)
        return inserted(plant)
      }),
    checkReady: () => TE.right(undefined),
  }
}

// What the core relies on, checked case by case on a fresh store each time.
export const mapStoreContract = plantStoreContract('Map store', async () => ({
  store: makeMapPlantStore(),
  release: async () => undefined,
}))
