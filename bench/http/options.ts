// The benchmark's settings: each a flag (`npm run bench:http -- --rounds 5`) or a BENCH_ variable,
// the flag winning; the defaults make a full run (wrk -t1, three rounds, the curve at five levels).
import { parseArgs } from 'node:util'

export const SERVER_KEYS = [
  'node-http',
  'fastify',
  'koa',
  'koa-same-work',
  'koa-floor',
  'express',
  'service',
  'koa-mongodb',
  'service-mongodb',
  'koa-mongodb-mixed',
  'service-mongodb-mixed',
] as const
export type ServerKey = (typeof SERVER_KEYS)[number]

export interface HttpBenchOptions {
  readonly rounds: number
  readonly durationSeconds: number
  readonly warmupSeconds: number
  /** Open connections for the servers measured at one level: in memory, and the mixed workload. */
  readonly connections: number
  /** The connection counts at which the MongoDB path and its reference are each measured. */
  readonly levels: ReadonlyArray<number>
  readonly threads: number
  /** Plants stored before the second run of the flat-store check; 0 skips the check. */
  readonly prefill: number
  /** The longest the pre-fill may take; it stops there and reports what it stored. */
  readonly prefillTimeoutSeconds: number
  readonly load: 'auto' | 'wrk' | 'autocannon'
  readonly servers: ReadonlyArray<ServerKey>
  /** Extra variables for the service's environment (`--service-env NAME=VALUE`). */
  readonly serviceEnv: Readonly<Record<string, string>>
  /** Where the servers' stdout goes: `/dev/null`, or files in this folder. */
  readonly logDir: string | undefined
  /** Where the curve's picture is written; `undefined`: nowhere. */
  readonly svgPath: string | undefined
}

export const DEFAULT_LEVELS: ReadonlyArray<number> = [1, 5, 10, 20, 50]
export const DEFAULT_SVG_PATH = 'docs/performance-curve.svg'
const MAX_CONNECTIONS = 10_000

const NUMBERS = {
  rounds: { env: 'BENCH_ROUNDS', fallback: 3, min: 1, max: 100 },
  duration: { env: 'BENCH_DURATION', fallback: 5, min: 1, max: 3600 },
  warmup: { env: 'BENCH_WARMUP', fallback: 2, min: 0, max: 3600 },
  connections: { env: 'BENCH_CONNECTIONS', fallback: 50, min: 1, max: MAX_CONNECTIONS },
  threads: { env: 'BENCH_THREADS', fallback: 1, min: 1, max: 64 },
  prefill: { env: 'BENCH_PREFILL', fallback: 1_000_000, min: 0, max: 100_000_000 },
  'prefill-timeout': { env: 'BENCH_PREFILL_TIMEOUT', fallback: 600, min: 1, max: 86_400 },
} as const

export const USAGE = `npm run bench:http -- [flags]   (each flag also as a variable, shown in brackets)
  --rounds N            rounds, each starting every server afresh (BENCH_ROUNDS, 3)
  --seconds S           seconds of measured load per run (BENCH_SECONDS, 5); also --duration, BENCH_DURATION
  --warmup S            seconds of load before each measurement (BENCH_WARMUP, 2)
  --levels a,b          connection counts for the MongoDB curve (BENCH_LEVELS, ${DEFAULT_LEVELS.join(',')})
  --connections N       open connections for the in-memory and mixed-workload runs (BENCH_CONNECTIONS, 50)
  --threads N           wrk threads (BENCH_THREADS, 1)
  --prefill N           plants stored for the flat-store check, 0 to skip it (BENCH_PREFILL, 1000000)
  --prefill-timeout S   the longest the pre-fill may take (BENCH_PREFILL_TIMEOUT, 600)
  --load wrk|autocannon the load generator (BENCH_LOAD; default: wrk when on PATH)
  --only a,b            servers to run, of ${SERVER_KEYS.join(', ')} (BENCH_ONLY; default all)
  --service-env N=V     a variable for the service's environment; repeatable
  --log-dir DIR         keep each server's stdout in DIR instead of /dev/null (BENCH_LOG_DIR)
  --svg FILE            where the curve's SVG goes, '' for nowhere (BENCH_SVG, ${DEFAULT_SVG_PATH})`

/** Reads the settings; a Left lists every bad one. */
export const parseOptions = (
  argv: ReadonlyArray<string>,
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; options: HttpBenchOptions } | { ok: false; problems: ReadonlyArray<string> } => {
  const problems: string[] = []
  let values: ReturnType<typeof parse>['values']
  try {
    values = parse(argv).values
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] }
  }
  const number = (name: keyof typeof NUMBERS): number => {
    const { env: variable, fallback, min, max } = NUMBERS[name]
    const raw = (name === 'duration' ? (values.seconds ?? values.duration ?? env['BENCH_SECONDS']) : values[name]) ?? env[variable]
    if (raw === undefined || raw === '') return fallback
    const value = Number(raw)
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`--${name} (${variable}): expected an integer from ${min} to ${max}`)
    }
    return value
  }
  const load = values.load ?? env['BENCH_LOAD'] ?? 'auto'
  if (load !== 'auto' && load !== 'wrk' && load !== 'autocannon') problems.push('--load (BENCH_LOAD): expected wrk or autocannon')
  const only = values.only ?? env['BENCH_ONLY']
  const servers = only === undefined || only === '' ? [...SERVER_KEYS] : only.split(',').map((s) => s.trim())
  const unknown = servers.filter((s) => !(SERVER_KEYS as ReadonlyArray<string>).includes(s))
  if (unknown.length > 0) problems.push(`--only (BENCH_ONLY): unknown ${unknown.join(', ')}; expected some of ${SERVER_KEYS.join(', ')}`)
  const levels = parseLevels(values.levels ?? env['BENCH_LEVELS'], problems)
  const svg = values.svg ?? env['BENCH_SVG']
  const serviceEnv: Record<string, string> = {}
  for (const pair of values['service-env'] ?? []) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(pair)
    if (match?.[1] === undefined || match[2] === undefined) problems.push(`--service-env: expected NAME=VALUE, not ${pair}`)
    else serviceEnv[match[1]] = match[2]
  }
  const options: HttpBenchOptions = {
    rounds: number('rounds'),
    durationSeconds: number('duration'),
    warmupSeconds: number('warmup'),
    connections: number('connections'),
    levels,
    threads: number('threads'),
    prefill: number('prefill'),
    prefillTimeoutSeconds: number('prefill-timeout'),
    load: load as HttpBenchOptions['load'],
    servers: servers as ServerKey[],
    serviceEnv,
    logDir: values['log-dir'] ?? (env['BENCH_LOG_DIR'] || undefined),
    svgPath: svg === undefined ? DEFAULT_SVG_PATH : svg === '' ? undefined : svg,
  }
  return problems.length === 0 ? { ok: true, options } : { ok: false, problems }
}

/** The curve's levels: distinct connection counts, in rising order. */
const parseLevels = (raw: string | undefined, problems: string[]): ReadonlyArray<number> => {
  if (raw === undefined || raw === '') return DEFAULT_LEVELS
  const levels = raw.split(',').map((s) => Number(s.trim()))
  if (levels.some((n) => !Number.isInteger(n) || n < 1 || n > MAX_CONNECTIONS)) {
    problems.push(`--levels (BENCH_LEVELS): expected connection counts from 1 to ${MAX_CONNECTIONS}, separated by commas`)
  }
  return [...new Set(levels)].sort((a, b) => a - b)
}

const parse = (argv: ReadonlyArray<string>) =>
  parseArgs({
    args: [...argv],
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      seconds: { type: 'string' },
      levels: { type: 'string' },
      svg: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      threads: { type: 'string' },
      prefill: { type: 'string' },
      'prefill-timeout': { type: 'string' },
      load: { type: 'string' },
      only: { type: 'string' },
      'service-env': { type: 'string', multiple: true },
      'log-dir': { type: 'string' },
    },
  })
