// `npm run bench:paths` (also part of `npm run bench`): what the paths anyone may call without a
// token (/healthz, /readyz, /openapi.json, the /docs bundle, fresh or cached) cost the service,
// per request, against what a POST /plants costs it, measured in the same interleaved rounds.
// Nothing here asserts a time: the ratios are read from the report. Needs wrk (apt-get install wrk).
import { execFile } from 'node:child_process'
import { cpus } from 'node:os'
import { promisify } from 'node:util'
import { median } from './http/report.js'
import { serverUnderTest, TOKEN } from './http/servers-under-test.js'
import { makeIdRanges } from './http/measure.js'
import { makeWrkLoad, wrkVersion } from './http/wrk.js'
import { FRESH } from './http/workload.js'

const run = promisify(execFile)
const SECONDS = Number(process.env['BENCH_PATHS_SECONDS'] ?? 4)
const ROUNDS = Number(process.env['BENCH_PATHS_ROUNDS'] ?? 3)
const SHAPE = { threads: 1, connections: 20, durationSeconds: SECONDS }

const version = wrkVersion()
if (version === undefined) {
  process.stderr.write('bench:paths: wrk is not on PATH (Debian: apt-get install -y wrk)\n')
  process.exit(1)
}
const post = makeWrkLoad(version)
const ids = makeIdRanges()

interface Path {
  readonly label: string
  readonly path: string
  readonly headers: ReadonlyArray<string>
}

// wrk's own summary: "N requests in Xs" and its non-2xx/3xx count.
const getLoad = async (url: string, { path, headers }: Path): Promise<{ requests: number; seconds: number; bad: number }> => {
  const args = ['-t', String(SHAPE.threads), '-c', String(SHAPE.connections), '-d', `${SECONDS}s`, ...headers.flatMap((h) => ['-H', h]), `${url}${path}`]
  const { stdout } = await run('wrk', args, { maxBuffer: 1024 * 1024 })
  const [, requests = '0', seconds = '1'] = /(\d+) requests in ([\d.]+)s/.exec(stdout) ?? []
  const bad = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0)
  return { requests: Number(requests), seconds: Number(seconds), bad }
}

const service = serverUnderTest('service', { referencesDir: '', logDir: undefined, serviceEnv: {} })
const rows = new Map<string, { cpuUs: number[]; reqPerSec: number[]; bad: number }>()
const note = (label: string, cpuUs: number, reqPerSec: number, bad: number): void => {
  const row = rows.get(label) ?? { cpuUs: [], reqPerSec: [], bad: 0 }
  row.cpuUs.push(cpuUs)
  row.reqPerSec.push(reqPerSec)
  rows.set(label, { ...row, bad: row.bad + bad })
}

for (let round = 1; round <= ROUNDS; round += 1) {
  // A fresh process per round, as the HTTP benchmark does; every path measured on it in turn.
  const server = await service.start(`paths-${round}`)
  try {
    const bundle = await fetch(`${server.url}/docs/swagger-ui-bundle.js`, { headers: { 'Accept-Encoding': 'br' } })
    await bundle.arrayBuffer()
    const etag = bundle.headers.get('etag') ?? ''
    const paths: ReadonlyArray<Path> = [
      { label: 'GET /healthz', path: '/healthz', headers: [] },
      { label: 'GET /readyz', path: '/readyz', headers: [] },
      { label: 'GET /openapi.json', path: '/openapi.json', headers: [] },
      { label: 'GET /docs/swagger-ui-bundle.js (br)', path: '/docs/swagger-ui-bundle.js', headers: ['Accept-Encoding: br'] },
      { label: 'GET /docs/swagger-ui-bundle.js (304)', path: '/docs/swagger-ui-bundle.js', headers: ['Accept-Encoding: br', `If-None-Match: ${etag}`] },
    ]
    const order = [...paths.map((p) => p.label), 'POST /plants']
    // The order rotates each round, so no path always runs on a warmer or a more crowded process.
    const rotated = [...order.slice(round % order.length), ...order.slice(0, round % order.length)]
    for (const label of rotated) {
      const before = server.cpuSeconds() ?? 0
      const measured =
        label === 'POST /plants'
          ? await post.run(server.url, TOKEN, SHAPE, ids(10_000_000), FRESH).then((r) => ({ requests: r.requests, seconds: r.seconds, bad: r.non2xx }))
          : await getLoad(server.url, paths.find((p) => p.label === label) as Path)
      const cpu = (server.cpuSeconds() ?? 0) - before
      note(label, measured.requests === 0 ? Number.NaN : (cpu * 1e6) / measured.requests, measured.requests / measured.seconds, measured.bad)
      process.stderr.write(`bench:paths: round ${round}: ${label}: ${measured.requests} requests\n`)
    }
  } finally {
    await server.stop()
  }
}

const postCpu = median(rows.get('POST /plants')?.cpuUs ?? []) ?? Number.NaN
const lines = [
  `Unauthenticated paths against POST /plants: the service as npm start runs it (in memory), wrk ${version}, ${SHAPE.connections} connections, ${SECONDS} s per path, ${ROUNDS} interleaved rounds (medians); ${cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
  '',
  '| request | req/s | service CPU per request | CPU ratio to a POST | answers other than 2xx/3xx |',
  '|---|---:|---:|---:|---:|',
  ...[...rows.entries()].map(([label, row]) => {
    const cpu = median(row.cpuUs) ?? Number.NaN
    return `| ${label} | ${Math.round(median(row.reqPerSec) ?? 0).toLocaleString('en')} | ${cpu.toFixed(0)} us | ${(cpu / postCpu).toFixed(2)} | ${row.bad} |`
  }),
]
process.stdout.write(`${lines.join('\n')}\n`)
