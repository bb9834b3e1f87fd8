import * as E from 'fp-ts/lib/Either.js'
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import { createHttpApp, createHttpServer, cutHalfSentRequests, type Logger } from '../../adapters/http/index.js'
import {
  openTelemetryRequestTracer,
  traceAuthenticator,
  tracePlantStore,
  tracerProviderRegistered,
} from '../../adapters/opentelemetry/index.js'
import { DEFAULT_MONGO_TIMEOUTS } from '../../adapters/mongodb/index.js'
import type { ServiceConfig, ShutdownConfig } from './config.js'
import { openAuthenticator } from './authentication.js'
import { prometheusInstrumentation } from './metrics.js'
import { connectionCapWithin, openFilesLimit } from './open-files.js'
import { openStorage } from './storage.js'
import type { StorageUnavailable } from '../../core/index.js'
import { serviceVersion } from './version.js'

// Read once, when the service is loaded, and given in the `listening` line so that a log tells
// which release wrote it.
const VERSION = serviceVersion()

/** A listening service: where it answers, and how to stop it. */
export interface RunningService {
  readonly url: string
  /**
   * Drains (`/readyz` answers 503 and every response closes its connection, while requests are
   * still served), then stops accepting, lets requests in flight finish within the grace period,
   * and closes storage.
   */
  readonly close: () => Promise<void>
}

/** Why the service did not start: what kind of problem, and a message naming the setting. */
export interface StartRefused {
  readonly problem: 'invalid configuration' | 'port in use'
  readonly message: string
}

const invalid = (message: string): StartRefused => ({ problem: 'invalid configuration', message })

/**
 * The composition root: configuration in, a listening service out, every dependency in view.
 * A Left names the setting that could not be used. `announce` writes what an operator must see
 * whatever the log level (where the service listens).
 */
export const startService = async (
  config: ServiceConfig,
  log: Logger,
  announce: Logger['info'] = log.info,
  droppedLogLines: () => number = () => 0,
): Promise<E.Either<StartRefused, RunningService>> => {
  const cap = connectionCapWithin(config.serverLimits.maxConnections, openFilesLimit())
  if (cap.warning !== undefined) log.warn('connection cap lowered to the open-files limit', { detail: cap.warning })
  const serverLimits = { ...config.serverLimits, maxConnections: cap.maxConnections }
  const opened = openStorage(config.storage)
  if (E.isLeft(opened)) return E.left(invalid(opened.left))
  const storage = opened.right
  // Metrics, when configured, wrap the ports and observe the HTTP adapter; without them nothing is measured.
  const instrumentation = config.metrics === undefined ? undefined : prometheusInstrumentation(droppedLogLines)
  // Spans through @opentelemetry/api reach the SDK a host registers before the service starts (a
  // preload); with none registered every span would be a no-op, so the decorators are left out.
  // Metrics wrap the traced ports, so they time the spans too.
  const tracing = tracerProviderRegistered()
  const tracedStore = tracing ? tracePlantStore(storage.store) : storage.store
  const plantStore = instrumentation?.plantStore(tracedStore) ?? tracedStore
  const verifier = openAuthenticator(config, log, instrumentation?.keySet)
  const tracedVerifier = tracing ? traceAuthenticator(verifier) : verifier
  const authenticator = instrumentation?.authenticator(tracedVerifier) ?? tracedVerifier
  const draining = new AbortController()
  const app = createHttpApp({
    plantStore,
    authenticator,
    log,
    ...(tracing ? { tracer: openTelemetryRequestTracer() } : {}),
    ...(instrumentation === undefined ? {} : { observer: instrumentation.http }),
    basePath: config.basePath,
    bodyLimitBytes: config.bodyLimitBytes,
    // MongoDB's deadline is the service's: a body slow to read or decode leaves storage less of it.
    ...(config.storage._tag === 'MongoDb'
      ? { answerWithinMs: config.storage.settings.timeouts?.operationMs ?? DEFAULT_MONGO_TIMEOUTS.operationMs }
      : {}),
    jsonLimits: config.jsonLimits,
    draining: draining.signal,
    docsPage: config.docsPage,
    ...(config.corsOrigins === undefined ? {} : { crossOrigin: { origins: config.corsOrigins } }),
  })
  app.silent = true
  const server = createHttpServer(app, serverLimits)
  const metricsServer = instrumentation?.server(config.serverLimits)
  const listening = await listen(server, config, 'PORT', 'HOST')
  const listened =
    E.isLeft(listening) || metricsServer === undefined || config.metrics === undefined
      ? listening
      : await listen(metricsServer, config.metrics, 'METRICS_PORT', 'METRICS_HOST')
  if (E.isLeft(listened)) {
    if (server.listening) await stopAccepting(server, config.shutdown)
    await storage.close()
    return listened
  }
  // Past the start, a listener's error (an accept failing for want of file descriptors, say) is
  // logged, not left unheard: unheard, it would end the process and every request in it.
  for (const listener of [server, metricsServer]) {
    listener?.on('error', (error) => log.error('listener failed', { cause: String(error) }))
  }
  const url = urlOf(server)
  announce('listening', {
    url,
    version: VERSION,
    storage: storage.description,
    basePath: config.basePath,
    ...(metricsServer === undefined ? {} : { metricsUrl: `${urlOf(metricsServer)}/metrics` }),
  })
  // Asked once at start, so a storage that cannot serve (down, refusing the configuration, a
  // member that cannot take writes) is named in the log at once, not first by a client's 503.
  void storage.store.checkReady()().then((ready) => {
    if (E.isLeft(ready)) log.warn('storage not ready at start', { detail: notReadyDetail(ready.left) })
  })
  return E.right({
    url,
    close: async () => {
      draining.abort()
      log.info('draining', { ms: config.shutdown.drainMs })
      await delay(config.shutdown.drainMs)
      await Promise.all([
        stopAccepting(server, config.shutdown),
        ...(metricsServer === undefined ? [] : [stopAccepting(metricsServer, config.shutdown)]),
      ])
      await storage.close()
      log.info('stopped')
    },
  })
}

const notReadyDetail = ({ cause, configurationFault }: StorageUnavailable): string =>
  configurationFault ?? (cause instanceof Error ? cause.message : String(cause))

// Keep-alive connections outlive server.close(): each is closed as soon as its last response is
// sent (the sweep), and whatever still runs after the grace period is cut off.
/** How long a request still sending its body when the listener closes may take to finish sending it. */
const HALF_SENT_MS = 1_000

const stopAccepting = async (server: Server, { graceMs }: ShutdownConfig): Promise<void> => {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeIdleConnections()
  const sweep = setInterval(() => server.closeIdleConnections(), 50)
  // A body still on its way gets a moment to arrive (a client mid-send finishes), not the whole
  // grace: a sender that stalled would hold the stop, and everyone's connections, for all of it.
  const halfSent = setTimeout(() => cutHalfSentRequests(server), Math.min(HALF_SENT_MS, graceMs))
  const forced = setTimeout(() => server.closeAllConnections(), graceMs)
  await closed
  clearInterval(sweep)
  clearTimeout(halfSent)
  clearTimeout(forced)
}

// A port another process holds is not a mistake in the settings: it may be a second copy of this
// service, or one still stopping. Said as such; a port not permitted or an address this host does
// not have is a configuration problem: say which.
const listen = async (
  server: Server,
  { port, host }: { readonly port: number; readonly host: string },
  portVariable: string,
  hostVariable: string,
): Promise<E.Either<StartRefused, void>> => {
  server.listen(port, host)
  try {
    await once(server, 'listening')
    return E.right(undefined)
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'EADDRINUSE') {
      return E.left({
        problem: 'port in use',
        message: `${portVariable}: port ${port} on ${host} is in use by another process: stop that process, or set ${portVariable} to a free port (0 picks one)`,
      })
    }
    return E.left(
      invalid(
        code === 'EACCES'
          ? `${portVariable}: expected a port this process may listen on; ${port} on ${host} is not permitted`
          : `${hostVariable}: expected an address of this machine to listen on; ${host} cannot be used (${String(code)})`,
      ),
    )
  }
}

const urlOf = (server: Server): string => {
  const { address, port, family } = server.address() as AddressInfo
  const host = family === 'IPv6' ? `[${address}]` : address
  return `http://${host}:${port}`
}
