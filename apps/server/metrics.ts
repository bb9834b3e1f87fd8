import type { Server } from 'node:http'
import {
  httpRequestRecorder,
  instrumentAuthenticator,
  instrumentPlantStore,
  keySetFetchRecorder,
  countLogLinesDropped,
  makePlantStoreMetrics,
  metricsRequestHandler,
} from '../../adapters/prometheus/index.js'
import { createBoundedServer, type HttpObserver, type HttpServerLimits } from '../../adapters/http/index.js'
import type { KeySetObserver } from '../../adapters/jwt/index.js'
import type { Authenticator, Clock, PlantStore } from '../../core/index.js'
import { systemClock } from '../../wire/index.js'

/** What the composition root needs to measure the service: decorators, observers, and a listener. */
export interface Instrumentation {
  readonly plantStore: (store: PlantStore) => PlantStore
  readonly authenticator: (authenticator: Authenticator) => Authenticator
  readonly http: HttpObserver
  readonly keySet: KeySetObserver
  /**
   * The server for `GET /metrics`, not yet listening: a listener apart from the public one, with
   * its timeouts and at most `METRICS_MAX_CONNECTIONS` connections (a scraper or two).
   */
  readonly server: (limits: HttpServerLimits) => Server
}

/** Scrapers are few: Prometheus and perhaps a second one during a migration, with room to spare. */
export const METRICS_MAX_CONNECTIONS = 8

/** Prometheus metrics for every port and the HTTP adapter. */
export const prometheusInstrumentation = (droppedLogLines: () => number = () => 0, clock: Clock = systemClock): Instrumentation => {
  const metrics = makePlantStoreMetrics()
  countLogLinesDropped(metrics.registry, droppedLogLines)
  return {
    plantStore: (store) => instrumentPlantStore(store, metrics, { clock }),
    authenticator: (authenticator) => instrumentAuthenticator(authenticator, metrics),
    http: httpRequestRecorder(metrics),
    keySet: keySetFetchRecorder(metrics),
    server: (limits) => {
      // The bounded server stamps every answer with X-Request-Id, chosen as the API's are, and
      // admits connections by the public listener's rule.
      return createBoundedServer(
        metricsRequestHandler(metrics.registry, { clock }),
        { ...limits, maxConnections: METRICS_MAX_CONNECTIONS, maxConnectionsPerAddress: METRICS_MAX_CONNECTIONS },
        {},
        clock,
      )
    },
  }
}

