import type { Either } from 'fp-ts/lib/Either.js'
import type { Counter } from 'prom-client'
import { isSamePlant, type Clock, type InsertOptions, type InsertOutcome, type NewPlant, type PlantStore, type StoreError } from '../../core/index.js'
import type { PlantStoreMetrics } from './metrics.js'
import { timed } from './timed.js'
import { systemClock } from '../../wire/index.js'

/**
 * The same store, counting what it does: each call's latency and outcome (ok, unavailable,
 * misconfigured: storage refuses the service's configuration, full, or a defect: a rejected task), and each insert's meaning for the client: a plant created, replayed
 * or refused as a conflict. Answers and rejections pass through unchanged. Latency is timed on
 * `clock` (`systemClock` when absent).
 *
 * @example
 * ```ts
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 * import { instrumentPlantStore, makePlantStoreMetrics } from 'plant-store/adapters/prometheus'
 *
 * const store = instrumentPlantStore(makeInMemoryPlantStore(), makePlantStoreMetrics())
 * ```
 */
export const instrumentPlantStore = (
  store: PlantStore,
  { storageCalls, plants }: PlantStoreMetrics,
  { clock = systemClock }: { readonly clock?: Clock } = {},
): PlantStore => {
  const [created, replayed, conflict] = ['created', 'replayed', 'conflict'].map((outcome) => {
    const counter = plants.labels(outcome)
    counter.inc(0) // every outcome is a series from the start, so rate() sees its first increase
    return counter
  }) as [Counter.Internal, Counter.Internal, Counter.Internal]
  const insertCall = callRecorder(storageCalls, 'insert')
  const readyCall = callRecorder(storageCalls, 'check_ready')
  return {
    insertUnlessExists: (plant: NewPlant, options?: InsertOptions) =>
      timed(store.insertUnlessExists(plant, options), (answer, seconds) => {
        insertCall(answer, seconds)
        if (answer?._tag !== 'Right') return
        const found: InsertOutcome = answer.right
        if (found._tag === 'Inserted') created.inc()
        else if (isSamePlant(plant, found.stored)) replayed.inc()
        else conflict.inc()
      }, clock),
    checkReady: () => timed(store.checkReady(), readyCall, clock),
  }
}

// Label lookups done once, not per call.
const callRecorder = (histogram: PlantStoreMetrics['storageCalls'], operation: string) => {
  const ok = histogram.labels(operation, 'ok')
  const unavailable = histogram.labels(operation, 'unavailable')
  const misconfigured = histogram.labels(operation, 'misconfigured')
  const full = histogram.labels(operation, 'full')
  const defect = histogram.labels(operation, 'defect')
  const failed = (error: StoreError) =>
    error._tag === 'StorageFull' ? full : error.configurationFault === undefined ? unavailable : misconfigured
  return (answer: Either<StoreError, unknown> | undefined, seconds: number): void =>
    (answer === undefined ? defect : answer._tag === 'Right' ? ok : failed(answer.left)).observe(seconds)
}
