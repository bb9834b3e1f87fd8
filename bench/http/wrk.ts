// Load from wrk (Debian's package), driven by post-plants.lua, which prints the numbers as JSON.
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import type { LoadGenerator, LoadResult, LoadShape } from './load.js'
import { pinned } from './pinning.js'
import { FRESH, type Workload } from './workload.js'

const SCRIPT = fileURLToPath(new URL('./post-plants.lua', import.meta.url))

interface WrkSummary {
  readonly requests: number
  readonly durationUs: number
  readonly non2xx: number
  readonly socketErrors: number
  readonly p50Us: number
  readonly p99Us: number
}

/** The version wrk prints (`wrk debian/4.1.0-3 [epoll] ...`), or `undefined` when wrk is not on PATH. */
export const wrkVersion = (): string | undefined => {
  try {
    // wrk prints its usage, version first, and exits 1 when given no URL.
    execFileSync('wrk', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    return 'wrk'
  } catch (error) {
    const { code, stdout } = error as { code?: string; stdout?: string }
    if (code === 'ENOENT') return undefined
    return /^wrk (\S+)/.exec(stdout ?? '')?.[1] ?? 'unknown version'
  }
}

const wrk = async (
  cores: string | undefined,
  url: string,
  token: string,
  shape: LoadShape,
  firstId: number,
  perThread: number,
  workload: Workload,
): Promise<LoadResult> => {
  const args = [
    ...['-t', String(shape.threads), '-c', String(shape.connections), '-d', `${shape.durationSeconds}s`],
    ...['--timeout', '5s', '-s', SCRIPT, `${url}/plants`, '--'],
    ...[String(firstId), String(shape.threads), String(perThread), token],
    ...[String(workload.replayPercent), String(workload.conflictPercent), String(workload.lag)],
  ]
  const command = pinned(cores, 'wrk', args)
  const child = spawn(command.command, command.args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  let threadsDone = 0
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk
    threadsDone += chunk.split('BENCH-THREAD-DONE').length - 1
    // wrk waits out its duration even when every thread has stopped; SIGINT ends the wait.
    if (perThread > 0 && threadsDone === shape.threads) child.kill('SIGINT')
  })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const [code] = (await once(child, 'exit')) as [number | null]
  const line = /^BENCH-RESULT (.*)$/m.exec(output)?.[1]
  if (line === undefined) throw new Error(`wrk ${args.join(' ')} exited with ${code} without a result:\n${output}`)
  const summary = JSON.parse(line) as WrkSummary
  return {
    requests: summary.requests,
    seconds: summary.durationUs / 1e6,
    p50Ms: summary.p50Us / 1000,
    p99Ms: summary.p99Us / 1000,
    non2xx: summary.non2xx,
    socketErrors: summary.socketErrors,
  }
}

/** Load from wrk, run on `cores` (taskset's list) when given. */
export const makeWrkLoad = (version: string, cores: string | undefined = undefined): LoadGenerator => ({
  description: `wrk ${version}`,
  run: (url, token, shape, firstId, workload) => wrk(cores, url, token, shape, firstId, 0, workload),
  send: (url, token, shape, firstId, count) => wrk(cores, url, token, shape, firstId, Math.ceil(count / shape.threads), FRESH),
})
