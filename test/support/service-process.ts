import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { dirname } from 'node:path'
import { isBuildCurrent, MAIN, useCurrentBuild } from './current-build.js'
import { checkTrafficOf, forgetTrafficOf } from './traffic-check.js'

export interface ServiceProcess {
  readonly child: ChildProcess
  readonly stdout: () => string
  readonly stderr: () => string
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>
  /** Resolves with the URL the service logged as listening on. */
  readonly listening: Promise<string>
  readonly stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

/** Where a service runs from, when not from this repository's build: an installed copy. */
export interface ServiceCommand {
  /** The program and its arguments, such as `['node', 'dist/apps/server/main.js']`. */
  readonly argv: readonly [string, ...string[]]
  readonly cwd: string
}

/**
 * Starts the built service as `npm start` would (node on dist/apps/server/main.js), with only the
 * given environment beside PATH (and no .env), on an ephemeral loopback port unless the
 * environment says otherwise. The suite must call `useCurrentBuild()`: a stale `dist/` would test old code. Given
 * a command, it starts that instead (an installed copy of the service), with the same checks.
 */
export const startServiceProcess = (env: Record<string, string>, command?: ServiceCommand): ServiceProcess => {
  if (command === undefined && !isBuildCurrent()) {
    throw new Error('dist/ is missing or older than the sources: call useCurrentBuild() in the suite')
  }
  const [program, ...args] = command?.argv ?? [process.execPath, MAIN]
  const child = spawn(program, args, {
    // Not the repository: the service reads .env from its working directory, and a developer's
    // local settings must not reach the service a test configures. The build's folder has none.
    cwd: command?.cwd ?? dirname(MAIN),
    env: { PATH: process.env['PATH'] ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  const listening = new Promise<string>((resolve, reject) => {
    const look = () => {
      const line = stdout.split('\n').find((l) => l.includes('"msg":"listening"'))
      if (line === undefined) return
      // Found once: every later chunk would split all the output so far again, which under load
      // made the process reading it spend more CPU than the service it measures.
      child.stdout.off('data', look)
      const { url } = JSON.parse(line) as { url: string }
      // Every answer a test gets from the service is checked against the document it serves.
      void exited.then(() => forgetTrafficOf(url))
      void checkTrafficOf(url).then(() => resolve(url))
    }
    child.stdout.on('data', look)
    void exited.then((code) => reject(new Error(`service exited with ${code} before listening:\n${stderr}`)))
  })
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    listening,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal)
      return exited
    },
  }
}

/**
 * The fixture of a suite that starts the built service: the build is brought up to date before
 * the suite, and every process a test started is killed once the test is over, passed or failed.
 * Answers `startServiceProcess` for the suite's tests.
 */
export const useServiceProcesses = (): ((env: Record<string, string>, command?: ServiceCommand) => ServiceProcess) => {
  useCurrentBuild()
  let started: ServiceProcess[] = []
  afterEach(async function () {
    const stopping = started
    started = []
    await Promise.all(stopping.map((service) => service.stop('SIGKILL')))
  })
  return (env, command) => {
    const service = startServiceProcess(env, command)
    started.push(service)
    return service
  }
}
