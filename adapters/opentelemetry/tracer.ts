import type { Tracer } from '@opentelemetry/api'
import { ProxyTracerProvider, trace } from './peers.js'

// The instrumentation scope the service's spans are reported under.
const SCOPE = 'plant-store'

/**
 * The tracer of the host application's registered OpenTelemetry SDK, or the API's no-op tracer
 * while none is: asked once, it follows an SDK registered later.
 *
 * @example
 * ```ts
 * import { plantStoreTracer } from 'plant-store/adapters/opentelemetry'
 *
 * const span = plantStoreTracer().startSpan('import plants')
 * span.end()
 * ```
 */
export const plantStoreTracer = (): Tracer => trace.getTracer(SCOPE)

/**
 * Whether the host application has registered an OpenTelemetry SDK's tracer provider (the API's
 * global provider is a proxy that delegates to it once one is set). Without one every span is a
 * no-op, so a composition root that asks this at start can leave the tracing decorators out and
 * spare each request their calls; an SDK is registered before the service starts (a preload).
 *
 * @example
 * ```ts
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 * import { tracePlantStore, tracerProviderRegistered } from 'plant-store/adapters/opentelemetry'
 *
 * const plain = makeInMemoryPlantStore()
 * const store = tracerProviderRegistered() ? tracePlantStore(plain) : plain
 * ```
 */
export const tracerProviderRegistered = (): boolean => {
  const provider = trace.getTracerProvider()
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer(SCOPE) !== undefined
}
