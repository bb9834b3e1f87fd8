import type { TaskEither } from 'fp-ts/lib/TaskEither.js'
import type { StorageUnavailable, StoreError } from '../errors.js'
import type { NewPlant } from '../plant.js'

/** What an insert found: the plant is new, or another plant already stands under its id. */
export type InsertOutcome =
  | { readonly _tag: 'Inserted'; readonly plant: NewPlant }
  | { readonly _tag: 'AlreadyStored'; readonly stored: NewPlant }

/**
 * The plant was new, and is now stored.
 *
 * @example
 * ```ts
 * import * as TE from 'fp-ts/lib/TaskEither.js'
 * import { alreadyStored, inserted, type NewPlant, type PlantStore } from 'plant-store/core'
 *
 * const plants = new Map<bigint, NewPlant>()
 * const store: PlantStore = {
 *   insertUnlessExists: (plant) =>
 *     TE.fromIO(() => {
 *       const stored = plants.get(plant.id)
 *       if (stored !== undefined) return alreadyStored(stored)
 *       plants.set(plant.id, plant)
 *       return inserted(plant)
 *     }),
 *   checkReady: () => TE.right(undefined),
 * }
 * ```
 */
export const inserted = (plant: NewPlant): InsertOutcome => ({ _tag: 'Inserted', plant })
/**
 * Another plant, or the same one, already stands under the id: `stored` is that plant.
 *
 * @example
 * ```ts
 * import * as TE from 'fp-ts/lib/TaskEither.js'
 * import { alreadyStored, inserted, type NewPlant, type PlantStore } from 'plant-store/core'
 *
 * const plants = new Map<bigint, NewPlant>()
 * const store: PlantStore = {
 *   insertUnlessExists: (plant) =>
 *     TE.fromIO(() => {
 *       const stored = plants.get(plant.id)
 *       if (stored !== undefined) return alreadyStored(stored)
 *       plants.set(plant.id, plant)
 *       return inserted(plant)
 *     }),
 *   checkReady: () => TE.right(undefined),
 * }
 * ```
 */
export const alreadyStored = (stored: NewPlant): InsertOutcome => ({ _tag: 'AlreadyStored', stored })

/**
 * What a caller tells storage of its own time. `withinMs`: how long the caller can still wait,
 * from when the call starts (the time a request's answer has left once its body was read); an
 * adapter that can be slow answers `StorageUnavailable` rather than take longer, and one that
 * answers at once may ignore it. A `withinMs` that is not a number (NaN) is the caller's defect:
 * an adapter that reads it rejects the task.
 */
export interface InsertOptions {
  readonly withinMs?: number
}

/** Where plants are kept. */
export interface PlantStore {
  /**
   * Stores the plant unless its id is taken, in one atomic step, and reports what stands under
   * the id when it is. A `Right` means the answer is durable to the extent the adapter promises.
   * Storage being unreachable or too slow is a `Left`, and so is a bounded store that is full
   * (`StorageFull`, for a new id only: what stands under a taken id is still reported). A defect
   * (a bug, a stored document that is not a plant) rejects the task instead, for the caller's
   * error boundary.
   */
  readonly insertUnlessExists: (plant: NewPlant, options?: InsertOptions) => TaskEither<StoreError, InsertOutcome>
  /** Succeeds when storage can serve requests now. */
  readonly checkReady: () => TaskEither<StorageUnavailable, void>
}
