import type { Counter } from 'prom-client'
import type { PlantStoreMetrics } from './metrics.js'

/**
 * What the HTTP adapter calls once per finished request (its `HttpObserver` port, matched by
 * shape: adapters do not import each other). Label children are cached by route, method and
 * status, a small bounded set, so a request costs a map lookup, not a label hash.
 *
 * @example
 * ```ts
 * import { createHttpApp } from 'plant-store/adapters/http'
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 * import { httpRequestRecorder, makePlantStoreMetrics } from 'plant-store/adapters/prometheus'
 *
 * const app = createHttpApp({
 *   plantStore: makeInMemoryPlantStore(),
 *   authenticator: makeStaticTokenAuthenticator(['s3cret-token']),
 *   observer: httpRequestRecorder(makePlantStoreMetrics()),
 * })
 * ```
 */
export const httpRequestRecorder = ({ httpRequests, httpDuration }: PlantStoreMetrics) => {
  const counted = new Map<string, Counter.Internal>()
  const timedByRoute = new Map<string, { readonly observe: (seconds: number) => void }>()
  return {
    requestFinished: (route: string, method: string, status: number, seconds: number): void => {
      const routeKey = `${method} ${route}`
      const key = `${status} ${routeKey}`
      let count = counted.get(key)
      if (count === undefined) {
        count = httpRequests.labels(route, method, String(status))
        counted.set(key, count)
      }
      count.inc()
      let latency = timedByRoute.get(routeKey)
      if (latency === undefined) {
        latency = httpDuration.labels(route, method)
        timedByRoute.set(routeKey, latency)
      }
      latency.observe(seconds)
    },
  }
}

/**
 * What the JWT adapter calls after each fetch of a key set (its `KeySetObserver` port, by shape).
 *
 * @example
 * ```ts
 * import { makeJwtAuthenticator } from 'plant-store/adapters/jwt'
 * import { keySetFetchRecorder, makePlantStoreMetrics } from 'plant-store/adapters/prometheus'
 *
 * const authenticator = makeJwtAuthenticator(
 *   {
 *     keys: { _tag: 'Jwks', url: new URL('https://id.example.com/.well-known/jwks.json'), algorithms: ['RS256'] },
 *     issuer: 'https://id.example.com/',
 *     audience: 'plant-store',
 *     clockToleranceSeconds: 30,
 *   },
 *   keySetFetchRecorder(makePlantStoreMetrics()),
 * )
 * ```
 */
export const keySetFetchRecorder = ({ keySetFetches }: PlantStoreMetrics) => {
  const ok = keySetFetches.labels('ok')
  const failed = keySetFetches.labels('failed')
  return {
    keySetFetched: (outcome: 'ok' | 'failed', seconds: number): void => (outcome === 'ok' ? ok : failed).observe(seconds),
  }
}
