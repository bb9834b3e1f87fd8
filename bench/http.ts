// `npm run bench:http` (also part of `npm run bench`): the service as `npm start` runs it, under
// load from another process, against reference servers doing the same work (issue 11). Progress
// goes to stderr; the report, a Markdown block for the README, to stdout. Nothing here asserts a
// time: the goal is read from the report.
import { existsSync, mkdirSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { autocannonLoad } from './http/autocannon.js'
import { buildReferenceServers } from './http/build-references.js'
import type { LoadGenerator } from './http/load.js'
import { makeIdRanges, runFlatCheck, runRounds } from './http/measure.js'
import { parseOptions, USAGE, type HttpBenchOptions } from './http/options.js'
import { renderReport } from './http/report.js'
import { serverUnderTest } from './http/servers-under-test.js'
import { makeWrkLoad, wrkVersion } from './http/wrk.js'

function fail(message: string): never {
  process.stderr.write(`bench:http: ${message}\n`)
  process.exit(1)
}

const chooseLoad = (wanted: HttpBenchOptions['load']): LoadGenerator => {
  if (wanted === 'autocannon') return autocannonLoad
  const version = wrkVersion()
  if (version !== undefined) return makeWrkLoad(version)
  if (wanted === 'wrk') return fail('--load wrk, but wrk is not on PATH (Debian: apt-get install -y wrk)')
  process.stderr.write('bench:http: wrk is not on PATH; using autocannon, which saturates before the fastest servers do\n')
  return autocannonLoad
}

if (process.argv.includes('--help')) {
  process.stdout.write(`${USAGE}\n`)
  process.exit(0)
}
const parsed = parseOptions(process.argv.slice(2), process.env)
if (!parsed.ok) fail(`${parsed.problems.join('\n  ')}\n${USAGE}`)
const { options } = parsed
if (!existsSync('dist/apps/server/main.js')) fail('dist/apps/server/main.js is missing: run npm run build (npm run bench:http does)')
if (options.logDir !== undefined) mkdirSync(options.logDir, { recursive: true })

const load = chooseLoad(options.load)
const where = { referencesDir: buildReferenceServers(), logDir: options.logDir, serviceEnv: options.serviceEnv }
const servers = options.servers.map((key) => serverUnderTest(key, where))
const settings = {
  load,
  shape: { threads: options.threads, connections: options.connections, durationSeconds: options.durationSeconds },
  warmupSeconds: options.warmupSeconds,
  ids: makeIdRanges(),
  progress: (line: string) => process.stderr.write(`${line}\n`),
}
const cores = cpus()
const machine = `${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, load average ${loadavg()[0]?.toFixed(1)} at start`
const date = new Date()
settings.progress(`bench:http: load from ${load.description}; ${machine}`)

const measured = await runRounds(servers, options.rounds, settings)
const { rounds } = measured
const failures = [...measured.failures]
const service = servers.find((s) => s.key === 'service')
const flat =
  service === undefined || options.prefill === 0
    ? undefined
    : await runFlatCheck(service, options.prefill, options.prefillTimeoutSeconds, settings).catch((error: unknown) => {
        failures.push(`flat-store check: ${String(error).split('\n')[0]}`)
        settings.progress(`flat-store check failed: ${String(error)}`)
        return undefined
      })

process.stdout.write(
  `${renderReport(
    {
      date,
      loadDescription: load.description,
      threads: options.threads,
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      rounds: options.rounds,
      machine,
    },
    servers,
    rounds,
    flat,
    failures,
  )}\n`,
)
if (failures.length > 0) process.exitCode = 1
