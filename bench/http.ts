// `npm run bench:http` (also part of `npm run bench`): the service as `npm start` runs it, under
// load from another process, against reference servers doing the same work; the MongoDB path and
// its reference at every connection count of the curve. Progress goes to stderr; the report, a
// Markdown block for docs/performance.md, to stdout; the curve's picture to an SVG file. Nothing
// here asserts a time: the goals are read from the report.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, isAbsolute, relative } from 'node:path'
import { autocannonLoad } from './http/autocannon.js'
import { buildReferenceServers } from './http/build-references.js'
import { CURVE_KEYS, curvePoints } from './http/curve.js'
import { renderCurveSvg } from './http/curve-svg.js'
import type { LoadGenerator } from './http/load.js'
import { makeIdRanges, planRuns, runFlatCheck, runRounds } from './http/measure.js'
import { parseOptions, USAGE, type HttpBenchOptions } from './http/options.js'
import { allowedCores, pinSelf, planPinning } from './http/pinning.js'
import { formatDuration, IN_MEMORY_KEYS, renderReport } from './http/report.js'
import { serverUnderTest } from './http/servers-under-test.js'
import { makeWrkLoad, wrkVersion } from './http/wrk.js'

function fail(message: string): never {
  process.stderr.write(`bench:http: ${message}\n`)
  process.exit(1)
}

const chooseLoad = (wanted: HttpBenchOptions['load'], cores: string | undefined): LoadGenerator => {
  if (wanted === 'autocannon') return autocannonLoad
  const version = wrkVersion()
  if (version !== undefined) return makeWrkLoad(version, cores)
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

const startedAt = Date.now()
const plan = planPinning(allowedCores())
// The harness drives the load (autocannon runs inside it): it belongs on the load generator's core.
const pinning =
  plan.load === undefined || pinSelf(plan.load) ? plan.description : `${plan.description} (the harness itself could not be pinned)`
const load = chooseLoad(options.load, plan.load)
const where = {
  referencesDir: buildReferenceServers(),
  logDir: options.logDir,
  serviceEnv: options.serviceEnv,
  serverCores: plan.server,
  peerCores: plan.peer,
}
const servers = options.servers.map((key) => serverUnderTest(key, where))
const runs = planRuns(servers, CURVE_KEYS, options.levels, options.connections, IN_MEMORY_KEYS)
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
settings.progress(`bench:http: ${pinning}`)
// About three seconds a run to start a server (and its wire peer, under tsx) and stop it.
const perRun = options.warmupSeconds + options.durationSeconds + 3
settings.progress(
  `bench:http: ${runs.length} runs a round, ${options.rounds} round(s): about ${formatDuration(runs.length * options.rounds * perRun)}` +
    (options.prefill === 0 || !options.servers.includes('service')
      ? ''
      : `, then the flat-store check (its fill at most ${formatDuration(options.prefillTimeoutSeconds)})`),
)

const measured = await runRounds(runs, options.rounds, settings)
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

const onCurve = servers.some((s) => CURVE_KEYS.includes(s.key))
const curve = onCurve ? curvePoints(rounds, options.levels) : []
let picture: string | undefined
if (options.svgPath !== undefined && curve.length > 0) {
  const caption =
    `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cores.length} cores, ${load.description}, ` +
    `${options.rounds} round(s) of ${options.durationSeconds} s, fresh ids; ${plan.load === undefined ? 'not pinned' : 'pinned with taskset'}`
  mkdirSync(dirname(options.svgPath), { recursive: true })
  writeFileSync(options.svgPath, renderCurveSvg(curve, caption))
  // The report is written for docs/performance.md: a picture under docs/ is linked relative to it.
  const fromDocs = relative('docs', options.svgPath)
  picture = fromDocs.startsWith('..') || isAbsolute(fromDocs) ? options.svgPath : fromDocs
  settings.progress(`bench:http: the curve is in ${options.svgPath}`)
}

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
      pinning,
      elapsedSeconds: (Date.now() - startedAt) / 1000,
      picture,
    },
    servers,
    rounds,
    flat,
    failures,
    curve,
  )}\n`,
)
if (failures.length > 0) process.exitCode = 1
