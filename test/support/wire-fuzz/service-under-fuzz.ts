// The built service the fuzzer drives, one process for as long as it lives: its two listeners,
// whether it is alive, what ended it, and its resident memory.
import { readFileSync } from 'node:fs'
import { startServiceProcess, type ServiceProcess } from '../service-process.js'
import { FUZZ_TOKEN } from './requests.js'
import type { Listener } from './scenario.js'
import type { Endpoint } from './wire-connection.js'

/** Short timeouts, so that scenarios of tens of milliseconds reach them. */
export const FUZZ_HEADERS_TIMEOUT_MS = 300

const ENVIRONMENT: Record<string, string> = {
  PLANT_STORE_TOKENS: FUZZ_TOKEN,
  METRICS_PORT: '0',
  HEADERS_TIMEOUT_MS: String(FUZZ_HEADERS_TIMEOUT_MS),
  REQUEST_TIMEOUT_MS: String(2 * FUZZ_HEADERS_TIMEOUT_MS),
  KEEP_ALIVE_TIMEOUT_MS: '500',
  SHUTDOWN_DRAIN_MS: '0',
  // One line per request would be most of what the fuzzer reads; the crash's stack goes to stderr.
  LOG_LEVEL: 'warn',
}

export interface RunningService {
  readonly process: ServiceProcess
  readonly endpoints: Readonly<Record<Listener, Endpoint>>
}

const endpointOf = (url: string): Endpoint => {
  const { hostname, port } = new URL(url)
  return { host: hostname, port: Number(port) }
}

const start = async (): Promise<RunningService> => {
  const service = startServiceProcess(ENVIRONMENT)
  const url = await service.listening
  const line = service.stdout().split('\n').find((l) => l.includes('"msg":"listening"')) ?? '{}'
  const { metricsUrl } = JSON.parse(line) as { metricsUrl?: string }
  if (metricsUrl === undefined) throw new Error(`the service announced no metrics listener: ${line}`)
  return { process: service, endpoints: { public: endpointOf(url), metrics: endpointOf(metricsUrl) } }
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
  /** How many processes were started. */
  readonly starts: () => number
  readonly stop: () => Promise<void>
}

export const keepService = (): ServiceKeeper => {
  let current: RunningService | undefined
  let claimed = false
  let starts = 0
  return {
    forCase: async () => {
      if (current !== undefined && deathOf(current) !== undefined) {
        const report = claimed ? undefined : deathOf(current)
        current = undefined
        if (report !== undefined) throw new Error(`the service died after the previous case had been checked: ${report}`)
      }
      if (current === undefined) {
        current = await start()
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
    starts: () => starts,
    stop: async () => {
      await current?.process.stop('SIGTERM')
      current = undefined
    },
  }
}
