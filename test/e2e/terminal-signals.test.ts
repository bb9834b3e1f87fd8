import { expect } from 'chai'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { setTimeout as delay } from 'node:timers/promises'
import { useCurrentBuild } from '../support/current-build.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

// Ctrl-C in a terminal sends SIGINT to the whole foreground process group: npm gets it, node gets
// it, and npm passes its own copy on to node. That is one request to stop, and it drains.
describe('npm start stopped from a terminal', function () {
  this.timeout(30_000)
  let npm: ChildProcess | undefined

  useCurrentBuild()
  afterEach(function () {
    if (npm?.pid !== undefined && npm.exitCode === null) process.kill(-npm.pid, 'SIGKILL')
    npm = undefined
  })

  // npm start in a process group of its own, as a shell's job is; resolves once it listens.
  const startNpm = async (drainMs: number): Promise<{ child: ChildProcess; stdout: () => string; closed: Promise<unknown> }> => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')))
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      detached: true,
      env: { ...env, PORT: '0', HOST: '127.0.0.1', PLANT_STORE_TOKENS: 'signal-token-0123456789', SHUTDOWN_DRAIN_MS: String(drainMs) },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    npm = child
    let stdout = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    const closed = once(child, 'close')
    while (!stdout.includes('"msg":"listening"')) {
      if (child.exitCode !== null) expect.fail(`npm start exited with ${child.exitCode}`)
      await delay(50)
    }
    return { child, stdout: () => stdout, closed }
  }

  const messages = (stdout: string): string[] =>
    stdout
      .split('\n')
      // The service's lines, one JSON object each; npm's banner is not one of them.
      .filter((line) => line.startsWith('{"'))
      .map((line) => String((JSON.parse(line) as { msg: unknown }).msg))

  it('drains on one Ctrl-C, which node receives twice, and exits 0', async function () {
    const { child, stdout, closed } = await startNpm(1000)
    const pid = child.pid as number
    const signalled = performance.now()
    process.kill(-pid, 'SIGINT')
    await closed
    expect(child.exitCode).to.equal(0)
    expect(performance.now() - signalled, 'ms until exit: the drain ran').to.be.at.least(900)
    expect(messages(stdout())).to.include.members(['shutting down', 'draining', 'stopped'])
    expect(messages(stdout())).to.not.include('second signal: exiting without waiting')
  })

  it('exits at once, with status 1, on a Ctrl-C pressed again during the drain', async function () {
    const { child, stdout, closed } = await startNpm(20_000)
    const pid = child.pid as number
    process.kill(-pid, 'SIGINT')
    await delay(1000)
    const again = performance.now()
    process.kill(-pid, 'SIGINT')
    await closed
    expect(performance.now() - again, 'ms until exit').to.be.below(5000)
    expect(messages(stdout())).to.include('second signal: exiting without waiting')
    expect(child.exitCode).to.not.equal(0)
  })
})
