import { AsyncLocalStorage } from 'node:async_hooks'
import { context, ROOT_CONTEXT, trace, type Context, type ContextManager } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'

// What a host application's OpenTelemetry setup does, in memory: a tracer provider whose spans a
// test reads back, and a context manager on AsyncLocalStorage, as the Node SDK registers one (the
// API's default carries no context across an await).
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
  /** Unregisters the provider and the context manager: the API is back to its no-ops. */
  readonly unregister: () => Promise<void>
}

/** Registers an in-memory SDK globally, as a host application would register its own. */
export const registerInMemorySdk = (): RegisteredSdk => {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  if (!trace.setGlobalTracerProvider(provider) || !context.setGlobalContextManager(asyncLocalContextManager())) {
    throw new Error('an OpenTelemetry SDK is registered already')
  }
  return {
    exporter,
    unregister: async () => {
      trace.disable()
      context.disable()
      await provider.shutdown()
    },
  }
}
