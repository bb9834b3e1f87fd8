import { collectDefaultMetrics, Counter, Histogram, Registry } from './peers.js'

/** The service's metrics, kept in their own registry (never prom-client's global one). */
export interface PlantStoreMetrics {
  readonly registry: Registry
  readonly httpRequests: Counter<'route' | 'method' | 'status'>
  readonly httpDuration: Histogram<'route' | 'method'>
  readonly plants: Counter<'outcome'>
  readonly storageCalls: Histogram<'operation' | 'outcome'>
  readonly authentications: Counter<'outcome'>
  readonly keySetFetches: Histogram<'outcome'>
}

// From a fast in-memory answer (about 100 us) to the longest storage deadline a client waits for.
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/**
 * Creates every metric of the service in a fresh registry, with the default process metrics
 * (CPU, memory, event-loop lag, heap, handles, GC) under their standard names (`process_*`,
 * `nodejs_*`), where off-the-shelf Node.js dashboards look for them.
 *
 * @example
 * ```ts
 * import { makePlantStoreMetrics } from 'plant-store/adapters/prometheus'
 *
 * const metrics = makePlantStoreMetrics()
 * console.log(await metrics.registry.metrics())
 * ```
 */
export const makePlantStoreMetrics = (): PlantStoreMetrics => {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const registers = [registry]
  return {
    registry,
    httpRequests: new Counter({
      name: 'plant_store_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'plant_store_http_request_duration_seconds',
      help: 'Time from the request reaching the app to its answer being settled, by route pattern and method.',
      labelNames: ['route', 'method'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    plants: new Counter({
      name: 'plant_store_plants_total',
      help: 'Plants asked to be stored that storage answered, by outcome: created, replayed (the same plant again) or conflict (another plant under the id).',
      labelNames: ['outcome'],
      registers,
    }),
    storageCalls: new Histogram({
      name: 'plant_store_storage_call_duration_seconds',
      help: 'Storage calls and their latency, by operation (insert, check_ready) and outcome (ok, unavailable, misconfigured, full, defect).',
      labelNames: ['operation', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    // A counter, not a histogram: a token check is a few microseconds except when a key set is
    // fetched, and those fetches have their own histogram.
    authentications: new Counter({
      name: 'plant_store_authentications_total',
      help: 'Token checks, by outcome: accepted, refused, unknown_key, insufficient_scope, unavailable, defect.',
      labelNames: ['outcome'],
      registers,
    }),
    keySetFetches: new Histogram({
      name: 'plant_store_key_set_fetch_duration_seconds',
      help: "Fetches of the identity provider's JSON Web Key Set and their latency, by outcome (ok, failed).",
      labelNames: ['outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
  }
}

/**
 * `plant_store_log_lines_dropped_total`: log lines the process dropped because their destination's
 * reader fell behind or is gone, read from `dropped` at each scrape.
 *
 * @example
 * ```ts
 * import { countLogLinesDropped, makePlantStoreMetrics } from 'plant-store/adapters/prometheus'
 *
 * let dropped = 0
 * const metrics = makePlantStoreMetrics()
 * countLogLinesDropped(metrics.registry, () => dropped)
 * dropped += 1 // a line the log could not write
 * ```
 */
export const countLogLinesDropped = (registry: Registry, dropped: () => number): void => {
  new Counter({
    name: 'plant_store_log_lines_dropped_total',
    help: "Log lines dropped because stdout's reader fell behind the log buffer or is gone.",
    registers: [registry],
    collect() {
      this.reset()
      this.inc(dropped())
    },
  })
}
