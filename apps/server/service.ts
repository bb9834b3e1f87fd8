import * as E from 'fp-ts/lib/Either.js'
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
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
import { delay, type Clock, type StorageUnavailable } from '../../core/index.js'
import { systemClock } from '../../wire/index.js'
import { stopAccepting } from './stop-accepting.js'
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
 * whatever the log level (where the service listens). `clock` is the one clock every timed
 * policy of the service reads and sets its timers on.
 */
export const startService = async (
  config: ServiceConfig,
  log: Logger,
  announce: Logger['info'] = log.info,
  droppedLogLines: () => number = () => 0,
  clock: Clock = systemClock,
): Promise<E.Either<StartRefused, RunningService>> => {
  const cap = connectionCapWithin(config.serverLimits.maxConnections, openFilesLimit())
  if (cap.warning !== undefined) log.warn('connection cap lowered to the open-files limit', { detail: cap.warning })
  const serverLimits = { ...config.serverLimits, maxConnections: cap.maxConnections }
  const opened = openStorage(config.storage, clock)
  if (E.isLeft(opened)) return E.left(invalid(opened.left))
  const storage = opened.right
  // Metrics, when configured, wrap the ports and observe the HTTP adapter; without them nothing is measured.
  const instrumentation = config.metrics === undefined ? undefined : prometheusInstrumentation(droppedLogLines, clock)
  // Spans through @opentelemetry/api reach the SDK a host registers before the service starts (a
  // preload); with none registered every span would be a no-op, so the decorators are left out.
  // Metrics wrap the traced ports, so they time the spans too.
  const tracing = tracerProviderRegistered()
  const tracedStore = tracing ? tracePlantStore(storage.store) : storage.store
  const plantStore = instrumentation?.plantStore(tracedStore) ?? tracedStore
  const verifier = openAuthenticator(config, log, instrumentation?.keySet, clock)
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
    clock,
    ...(config.corsOrigins === undefined ? {} : { crossOrigin: { origins: config.corsOrigins } }),
  })
  app.silent = true
  const server = createHttpServer(app, serverLimits, clock)
  const metricsServer = instrumentation?.server(config.serverLimits)
  const listening = await listen(server, config, 'PORT', 'HOST')
  const listened =
    E.isLeft(listening) || metricsServer === undefined || config.metrics === undefined
      ? listening
      : await listen(metricsServer, config.metrics, 'METRICS_PORT', 'METRICS_HOST')
  if (E.isLeft(listened)) {
    if (server.listening) await stopListener(server, config.shutdown, clock)
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
      await delay(clock, config.shutdown.drainMs)
      await Promise.all([
        stopListener(server, config.shutdown, clock),
        ...(metricsServer === undefined ? [] : [stopListener(metricsServer, config.shutdown, clock)]),
      ])
      await storage.close()
      log.info('stopped')
    },
  })
}

const notReadyDetail = ({ cause, configurationFault }: StorageUnavailable): string =>
  configurationFault ?? (cause instanceof Error ? cause.message : String(cause))

// A Node server as the stop sees it (see stopAccepting).
const stopListener = (server: Server, { graceMs }: ShutdownConfig, clock: Clock): Promise<void> =>
  stopAccepting(
    {
      // A bounded server's close leaves a connection that has not sent its request yet to the
      // half-sent cut, on every Node line (createHttpServer).
      close: (closed) => server.close(() => closed()),
      closeIdleConnections: () => server.closeIdleConnections(),
      cutHalfSent: () => cutHalfSentRequests(server),
      closeAllConnections: () => server.closeAllConnections(),
    },
    graceMs,
    clock,
  )

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
