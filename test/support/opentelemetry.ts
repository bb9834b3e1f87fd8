import { AsyncLocalStorage } from 'node:async_hooks'
import { context, propagation, ROOT_CONTEXT, trace, type Context, type ContextManager, type TextMapPropagator } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'

// What a host application's OpenTelemetry setup does, in memory: a tracer provider whose spans a
// test reads back, a context manager on AsyncLocalStorage, as the Node SDK registers one (the
// API's default carries no context across an await), and the propagator the host chose, if any.
const asyncLocalContextManager = (): ContextManager => {
  const storage = new AsyncLocalStorage<Context>()
  const manager: ContextManager = {
    active: () => storage.getStore() ?? ROOT_CONTEXT,
    with: (active, fn, thisArg, ...args) => storage.run(active, () => fn.call(thisArg, ...args)),
    bind: (_active, target) => target,
    enable: () => manager,
    disable: () => {
      storage.disable()
      return manager
    },
  }
  return manager
}

export interface RegisteredSdk {
  readonly exporter: InMemorySpanExporter
  /** Unregisters the provider, the context manager and the propagator: the API is back to its no-ops. */
  readonly unregister: () => Promise<void>
}

/**
 * Registers an in-memory SDK globally, as a host application would register its own, with the
 * given propagator (the Node SDK's default is W3C trace context and baggage), or none.
 */
export const registerInMemorySdk = (propagator?: TextMapPropagator): RegisteredSdk => {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  if (!trace.setGlobalTracerProvider(provider) || !context.setGlobalContextManager(asyncLocalContextManager())) {
    throw new Error('an OpenTelemetry SDK is registered already')
  }
  if (propagator !== undefined && !propagation.setGlobalPropagator(propagator)) throw new Error('a propagator is registered already')
  return {
    exporter,
    unregister: async () => {
      trace.disable()
      context.disable()
      propagation.disable()
      await provider.shutdown()
    },
  }
}
