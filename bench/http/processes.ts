// Server processes under load: each started fresh, found ready by connecting to its port, read
// from /proc for its CPU time and resident memory, and stopped.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { connect, createServer, type AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { pinned } from './pinning.js'

export const HOST = '127.0.0.1'

/** A running server: where it answers, what it has cost so far, and how to stop it. */
export interface ServerProcess {
  readonly pid: number
  readonly url: string
  /** User plus system CPU time of the whole process (every thread) so far; `undefined` without /proc. */
  readonly cpuSeconds: () => number | undefined
  /** Resident set size now; `undefined` without /proc. */
  readonly rssBytes: () => number | undefined
  readonly stop: () => Promise<void>
}

export interface Launch {
  /** What the process is, for messages. */
  readonly label: string
  /** Arguments to node (this process's own executable). */
  readonly nodeArgs: ReadonlyArray<string>
  /** The environment beside PATH, PORT and HOST, which the harness sets. */
  readonly env: Readonly<Record<string, string>>
  /** Where the process's stdout goes: `/dev/null` or a log file, never a pipe the harness must drain. */
  readonly stdoutPath: string
  /** The cores it may run on (taskset's list), or `undefined`: wherever the kernel puts it. */
  readonly cores?: string | undefined
}

const READY_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 15_000

/** A port nobody listens on right now (another process may still take it: `startServer` retries). */
const freePort = async (): Promise<number> => {
  const probe = createServer()
  probe.listen(0, HOST)
  await once(probe, 'listening')
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, HOST)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

const stopChild = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
  await exited
  clearTimeout(timer)
}

/** Starts the process on a free loopback port and answers once it accepts connections. */
export const startServer = async (launch: Launch): Promise<ServerProcess> => {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const stdout = openSync(launch.stdoutPath, 'a')
    // taskset execs the command, so the pid read from /proc below is the server's own.
    const { command, args } = pinned(launch.cores, process.execPath, launch.nodeArgs)
    const child = spawn(command, args, {
      env: { PATH: process.env['PATH'] ?? '', ...launch.env, PORT: String(port), HOST },
      stdio: ['ignore', stdout, 'pipe'],
    })
    closeSync(stdout)
    let stderr = ''
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 16_384) stderr += chunk
    })
    const started = Date.now()
    while (child.exitCode === null && child.signalCode === null && !(await accepts(port))) {
      if (Date.now() - started > READY_TIMEOUT_MS) {
        await stopChild(child)
        throw new Error(`${launch.label} did not accept connections within ${READY_TIMEOUT_MS / 1000} s:\n${stderr}`)
      }
      await sleep(50)
    }
    // Someone else may have taken the port in between: then our process exits at once.
    await sleep(100)
    const pid = child.pid
    if (child.exitCode === null && child.signalCode === null && pid !== undefined) {
      return {
        pid,
        url: `http://${HOST}:${port}`,
        cpuSeconds: () => cpuSecondsOf(pid),
        rssBytes: () => rssBytesOf(pid),
        stop: () => stopChild(child),
      }
    }
    if (attempt >= 3 || !/in use|EADDRINUSE/.test(stderr)) {
      throw new Error(`${launch.label} exited before it was ready (status ${child.exitCode ?? child.signalCode}):\n${stderr}`)
    }
  }
}

let clockTicks: number | undefined
const ticksPerSecond = (): number => {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
    } catch {
      clockTicks = 100
    }
  }
  return clockTicks
}

// /proc/<pid>/stat: after the command name in parentheses, utime and stime are fields 14 and 15.
const cpuSecondsOf = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond()
  } catch {
    return undefined
  }
}

const rssBytesOf = (pid: number): number | undefined => {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024
  } catch {
    return undefined
  }
}

/** Starts the MongoDB wire peer (`npm run mongo-peer`) on a port it picks, and answers its URI. */
export const startMongoPeer = async (
  cores: string | undefined = undefined,
): Promise<{ readonly uri: string; readonly stop: () => Promise<void> }> => {
  const { command, args } = pinned(cores, process.execPath, ['--import', 'tsx', 'test/support/mongo-peer/main.ts', '--port', '0'])
  const child = spawn(command, args, {
    env: { PATH: process.env['PATH'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const uri = await new Promise<string>((resolve, reject) => {
    const look = (chunk: string) => {
      output += chunk
      const line = output.split('\n').find((l) => l.startsWith('mongodb://'))
      if (line !== undefined) resolve(line.trim())
    }
    child.stdout.setEncoding('utf8').on('data', look)
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.once('exit', (code) => reject(new Error(`the MongoDB wire peer exited (${code}) before it listened:\n${output}`)))
  })
  return { uri, stop: () => stopChild(child) }
}
