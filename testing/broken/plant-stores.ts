import * as TE from 'fp-ts/lib/TaskEither.js'
import { alreadyStored, inserted, storageUnavailable, type NewPlant, type PlantStore } from '../../core/index.js'
import type { PlantStoreFixtureFactory } from '../plant-store-contract.js'

// Stores with one mistake each, of the kinds real adapters make. They are the kit's self-test (the
// kit must catch each, naming the rule it breaks) and show what each rule is about.

/** A Map with the store's behaviour, so each broken store differs from a correct one in one place. */
const mapStore = (options: {
  readonly key?: (id: bigint) => unknown
  readonly keep?: (plant: NewPlant) => NewPlant
  readonly beforeWrite?: () => Promise<void>
  readonly replayIsInserted?: boolean
}): PlantStore & { readonly down: { value: boolean } } => {
  const { key = (id) => id, keep = (plant) => plant, beforeWrite, replayIsInserted = false } = options
  const plants = new Map<unknown, NewPlant>()
  const down = { value: false }
  return {
    down,
    insertUnlessExists: (plant) => async () => {
      if (down.value) return TE.left(storageUnavailable(new Error('storage is cut off')))()
      const stored = plants.get(key(plant.id))
      if (beforeWrite !== undefined) await beforeWrite()
      if (stored !== undefined) {
        const same = stored.name === plant.name && stored.tag === plant.tag
        return TE.right(replayIsInserted && same ? inserted(stored) : alreadyStored(stored))()
      }
      const kept = keep(plant)
      plants.set(key(plant.id), kept)
      return TE.right(inserted(plant))()
    },
    checkReady: () => (down.value ? TE.left(storageUnavailable(new Error('storage is cut off'))) : TE.right(undefined)),
  }
}

const fixtureOf =
  (make: () => PlantStore & { readonly down: { value: boolean } }): PlantStoreFixtureFactory =>
  async () => {
    const store = make()
    return {
      store,
      release: async () => undefined,
      cutOff: async () => {
        store.down.value = true
      },
    }
  }

/**
 * A correct store on a Map: what the others get wrong, this one gets right.
 *
 * @example
 * ```ts
 * import { correctMapStore, plantStoreContract, runContract } from 'plant-store/testing'
 *
 * // The kit's own reference: every rule holds for it.
 * const outcomes = await runContract(plantStoreContract('a map', correctMapStore))
 * ```
 */
export const correctMapStore: PlantStoreFixtureFactory = fixtureOf(() => mapStore({}))

// The inserts a test starts together all read before any of them writes: each waits out a few
// promise turns, with no timer (the kit reads no clock of its own), between its read and its write.
const yieldTurns = async (): Promise<void> => {
  for (let turn = 0; turn < 8; turn += 1) await Promise.resolve()
}

/**
 * The broken stores, each with the rule the kit must report it breaking:
 * - `checkThenInsert` reads, waits for a write elsewhere, then writes: concurrent inserts of one id all win;
 * - `idsThroughNumber` keys plants by `Number(id)`: ids above 2^53 collide with their neighbours;
 * - `tagLost` stores the name alone;
 * - `insertedOnReplay` answers Inserted when the same plant is sent again;
 * - `outageThrown` rejects when storage is cut off instead of answering a Left.
 */
export const brokenPlantStores: Readonly<Record<string, { readonly breaks: string; readonly fixture: PlantStoreFixtureFactory }>> = {
  checkThenInsert: {
    breaks: 'plant-store/one-winner',
    fixture: fixtureOf(() => mapStore({ beforeWrite: yieldTurns })),
  },
  idsThroughNumber: { breaks: 'plant-store/exact-ids', fixture: fixtureOf(() => mapStore({ key: (id) => Number(id) })) },
  tagLost: { breaks: 'plant-store/exact-strings', fixture: fixtureOf(() => mapStore({ keep: ({ id, name }) => ({ id, name }) as NewPlant })) },
  insertedOnReplay: { breaks: 'plant-store/reports-stored', fixture: fixtureOf(() => mapStore({ replayIsInserted: true })) },
  outageThrown: {
    breaks: 'plant-store/unavailable-is-a-left',
    fixture: async () => {
      const fixture = await correctMapStore()
      let down = false
      const { store } = fixture
      return {
        store: {
          insertUnlessExists: (plant, options) =>
            down ? () => Promise.reject(new Error('ECONNREFUSED')) : store.insertUnlessExists(plant, options),
          checkReady: () => (down ? () => Promise.reject(new Error('ECONNREFUSED')) : store.checkReady()),
        },
        release: fixture.release,
        cutOff: async () => {
          down = true
        },
      }
    },
  },
}
