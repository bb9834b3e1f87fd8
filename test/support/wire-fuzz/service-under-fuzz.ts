// The built service the fuzzer drives, one process for as long as it lives: its two listeners,
// whether it is alive, what ended it, and its resident memory. It runs with the service's default
// time-outs, and its connection caps scaled down (a crowd of 200 connections reaches them as one
// of 1,000 reaches the defaults, at a fifth of the fuzzer's cost).
import * as E from 'fp-ts/lib/Either.js'
import { readFileSync } from 'node:fs'
import { get } from 'node:http'
import { loadConfig, type ShutdownConfig } from '../../../apps/server/config.js'
import type { HttpServerLimits } from '../../../adapters/http/index.js'
import { startServiceProcess, type ServiceProcess } from '../service-process.js'
import { makeFuzzCredentials, type FuzzCredentials } from './fuzz-credentials.js'
import { PATHS, type RenderContext } from './requests.js'
import type { Listener } from './scenario.js'
import type { Endpoint } from './wire-connection.js'

const defaults = loadConfig({})
if (E.isLeft(defaults)) throw new Error(`the service's defaults do not load: ${defaults.left.join('; ')}`)

/** The connection caps the service under fuzz runs with; every time-out is the service's default. */
export const FUZZ_CONNECTION_CAPS = { maxConnections: 200, maxConnectionsPerAddress: 20 } as const

/** The time-outs of the service under fuzz: its defaults. */
export const FUZZ_LIMITS: HttpServerLimits = { ...defaults.right.serverLimits, ...FUZZ_CONNECTION_CAPS }

/** How the service under fuzz stops: its defaults. */
export const FUZZ_SHUTDOWN: ShutdownConfig = defaults.right.shutdown

const environment = (credentials: FuzzCredentials): Record<string, string> => ({
  ...credentials.environment,
  METRICS_PORT: '0',
  MAX_CONNECTIONS: String(FUZZ_CONNECTION_CAPS.maxConnections),
  MAX_CONNECTIONS_PER_ADDRESS: String(FUZZ_CONNECTION_CAPS.maxConnectionsPerAddress),
})

export interface RunningService {
  readonly process: ServiceProcess
  readonly endpoints: Readonly<Record<Listener, Endpoint>>
  readonly context: RenderContext
}

const endpointOf = (url: string): Endpoint => {
  const { hostname, port } = new URL(url)
  return { host: hostname, port: Number(port) }
}

// The ETag a path's identity representation is sent with, without its quotes. Asked over
// node:http, not fetch: the suite's fetch is held to the OpenAPI document, which lists no /docs.
const etagOf = (url: string): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const request = get(url, { headers: { 'Accept-Encoding': 'identity' }, timeout: 10_000 }, (response) => {
      response.resume()
      response.once('end', () => resolve(/^"(.*)"$/.exec(response.headers.etag ?? '')?.[1]))
    })
    request.once('timeout', () => request.destroy(new Error(`no answer from ${url} within 10 s`)))
    request.once('error', reject)
  })

// The ETag of each path, for If-None-Match fields that name it.
const etagsOf = async (url: string): Promise<ReadonlyMap<string, string>> => {
  const etags = new Map<string, string>()
  for (const path of PATHS) {
    const etag = await etagOf(`${url}${path}`)
    if (etag !== undefined) etags.set(path, etag)
  }
  return etags
}

const start = async (credentials: FuzzCredentials): Promise<RunningService> => {
  const service = startServiceProcess(environment(credentials))
  try {
    const url = await service.listening
    const line = service.stdout().split('\n').find((l) => l.includes('"msg":"listening"')) ?? '{}'
    const { metricsUrl } = JSON.parse(line) as { metricsUrl?: string }
    if (metricsUrl === undefined) throw new Error(`the service announced no metrics listener: ${line}`)
    const etags = await etagsOf(url)
    return {
      process: service,
      endpoints: { public: endpointOf(url), metrics: endpointOf(metricsUrl) },
      context: { tokenOf: credentials.tokenOf, etagOf: (path) => etags.get(path) },
    }
  } catch (error) {
    await service.stop('SIGKILL')
    throw error
  }
}

const STDERR_TAIL_CHARACTERS = 2_000

/** How the process ended, with the tail of its stderr; undefined while it runs. */
export const deathOf = ({ process: service }: RunningService): string | undefined => {
  const { exitCode, signalCode } = service.child
  if (exitCode === null && signalCode === null) return undefined
  const how = signalCode === null ? `exited with code ${exitCode}` : `was killed by ${signalCode}`
  return `the service ${how}; the end of its stderr:\n${service.stderr().slice(-STDERR_TAIL_CHARACTERS)}`
}

/** The resident set of the process in MiB (Linux: /proc/<pid>/status), undefined where unknown. */
export const residentMiB = ({ process: service }: RunningService): number | undefined => {
  try {
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${service.child.pid}/status`, 'utf8'))?.[1]
    return kib === undefined ? undefined : Number(kib) / 1024
  } catch {
    return undefined
  }
}

/**
 * Hands each case the running service, and a fresh one after a death: a case that killed the
 * service fails with what killed it, and the cases after it (shrinking included) still run.
 */
export interface ServiceKeeper {
  /** The service for the next case. Throws once with the report of a death no case has owned yet. */
  readonly forCase: () => Promise<RunningService>
  /** The report of the service's death, owned by the case that asks; undefined while it runs. */
  readonly claimDeath: (service: RunningService) => string | undefined
  /** Ends a service a case stopped on purpose (killed if it is still running): the next case has a fresh one. */
  readonly retire: (service: RunningService) => Promise<void>
  /** How many processes were started. */
  readonly starts: () => number
  readonly stop: () => Promise<void>
}

export const keepService = (): ServiceKeeper => {
  let current: RunningService | undefined
  let claimed = false
  let starts = 0
  let credentials: Promise<FuzzCredentials> | undefined
  return {
    forCase: async () => {
      if (current !== undefined && deathOf(current) !== undefined) {
        const report = claimed ? undefined : deathOf(current)
        current = undefined
        if (report !== undefined) throw new Error(`the service died after the previous case had been checked: ${report}`)
      }
      if (current === undefined) {
        credentials ??= makeFuzzCredentials()
        current = await start(await credentials)
        claimed = false
        starts += 1
      }
      return current
    },
    claimDeath: (service) => {
      const report = deathOf(service)
      if (report !== undefined && service === current) claimed = true
      return report
    },
    retire: async (service) => {
      if (service === current) current = undefined
      await service.process.stop('SIGKILL')
    },
    starts: () => starts,
    stop: async () => {
      // A stop the fuzz has already judged, or will not judge: no drain to wait for.
      await current?.process.stop('SIGKILL')
      current = undefined
      await (await credentials)?.stop()
    },
  }
}
