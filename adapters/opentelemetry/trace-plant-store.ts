import type { Tracer } from '@opentelemetry/api'
import type { InsertOptions, NewPlant, PlantStore } from '../../core/index.js'
import { tracedTask } from './traced-task.js'
import { plantStoreTracer } from './tracer.js'

/**
 * The same store, each call in a span (`PlantStore.insertUnlessExists`, `PlantStore.checkReady`),
 * a child of the request's: an insert says whether it stored the plant or found one stored
 * (`plant_store.outcome`); storage unavailable or full marks the span as an error. Answers and
 * rejections pass through unchanged.
 *
 * @example
 * ```ts
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 * import { plantStoreTracer, tracePlantStore } from 'plant-store/adapters/opentelemetry'
 *
 * const store = tracePlantStore(makeInMemoryPlantStore(), plantStoreTracer())
 * ```
 */
export const tracePlantStore = (store: PlantStore, tracer: Tracer = plantStoreTracer()): PlantStore => ({
  insertUnlessExists: (plant: NewPlant, options?: InsertOptions) =>
    tracedTask(tracer, 'PlantStore.insertUnlessExists', store.insertUnlessExists(plant, options), (answer) =>
      answer._tag === 'Right'
        ? { attributes: { 'plant_store.outcome': answer.right._tag === 'Inserted' ? 'inserted' : 'already_stored' }, failed: undefined }
        : { attributes: { 'plant_store.outcome': answer.left._tag }, failed: answer.left._tag },
    ),
  checkReady: () =>
    tracedTask(tracer, 'PlantStore.checkReady', store.checkReady(), (answer) =>
      answer._tag === 'Right'
        ? { attributes: { 'plant_store.outcome': 'ready' }, failed: undefined }
        : { attributes: { 'plant_store.outcome': answer.left._tag }, failed: answer.left._tag },
    ),
})
