import { expect } from 'chai'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { statSync, utimesSync } from 'node:fs'
import { connect } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

// `npm run dev` stopped the way a process manager or an IDE stops it: one signal to npm alone,
// which passes it on to the one process it started. Nothing may be left holding the port.

const portIsFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })

const withoutNpmOrAuth = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_') && name !== 'PLANT_STORE_TOKENS' && !name.startsWith('JWT_')),
  )

describe('npm run dev stopped by a signal to npm alone', function () {
  this.timeout(60_000)
  let npm: ChildProcess | undefined

  afterEach(function () {
    if (npm?.pid !== undefined) {
      try {
        process.kill(-npm.pid, 'SIGKILL')
      } catch {
        // the group is already gone: what the test wants
      }
    }
    npm = undefined
  })

  it('stops the service it runs, which releases its port, and prints the service readably', async function () {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')))
    const child = spawn('npm', ['run', 'dev'], {
      cwd: ROOT,
      detached: true,
      env: { ...env, PORT: '0', HOST: '127.0.0.1', PLANT_STORE_TOKENS: 'dev-script-token-0123456789' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    npm = child
    let stdout = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    const closed = once(child, 'close')
    let port: number | undefined
    while (port === undefined) {
      if (child.exitCode !== null) expect.fail(`npm run dev exited with ${child.exitCode}:\n${stdout}`)
      port = Number(/url: "http:\/\/127\.0\.0\.1:(\d+)"/.exec(stdout)?.[1] ?? Number.NaN) || undefined
      await delay(100)
    }
    expect(stdout, 'pino-pretty, not JSON lines').to.match(/INFO: listening/)
    expect(await portIsFree(port)).to.equal(false)

    process.kill(child.pid as number, 'SIGTERM')
    await closed
    expect(await portIsFree(port), 'the port, once npm has exited').to.equal(true)
    expect(stdout, 'the service drained as it stopped').to.match(/INFO: stopped/)
  })

  it('keeps one development token across restarts', async function () {
    const child = spawn('npm', ['run', 'dev'], {
      cwd: ROOT,
      detached: true,
      env: { ...withoutNpmOrAuth(), PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    npm = child
    let stdout = ''
    let stderr = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    // Bounded within the test's own timeout: a wait that outlived it would keep polling, keep the
    // run from ending, and leave the source's time unrestored for every later suite.
    const listened = (times: number) => async (): Promise<number> => {
      const deadline = performance.now() + 40_000
      while ((stdout.match(/INFO: listening/g) ?? []).length < times) {
        if (child.exitCode !== null) expect.fail(`npm run dev exited with ${child.exitCode}:\n${stdout}\n${stderr}`)
        if (performance.now() > deadline) expect.fail(`npm run dev did not say "listening" ${times} times within 40 s:\n${stdout}\n${stderr}`)
        await delay(100)
      }
      return Number([...stdout.matchAll(/url: "http:\/\/127\.0\.0\.1:(\d+)"/g)].at(-1)?.[1])
    }
    const created = async (port: number, token: string) =>
      (
        await fetch(`http://127.0.0.1:${port}/plants`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: '{"id":1,"name":"Fern"}',
        })
      ).status

    const firstPort = await listened(1)()
    const token = /Development token[^\n]*\n\s+(\S+)/.exec(stderr)?.[1] ?? expect.fail(`no development token on stderr:\n${stderr}`)
    expect(await created(firstPort, token)).to.equal(200)

    // A saved source restarts the service; its time is put back so dist/ does not look stale.
    // tsx's watcher takes up each file once the service has loaded it, which can come after the
    // first answer (on Node 26 the service is up sooner): the save is repeated, as a person saves
    // again, until tsx says it saw the change, so the service restarts once.
    const source = `${ROOT}apps/server/version.ts`
    const { atime, mtime } = statSync(source)
    const save = () => utimesSync(source, new Date(), new Date())
    save()
    const resave = setInterval(() => {
      if (!/\[tsx\] change in/.test(stdout)) save()
    }, 500)
    try {
      const port = await listened(2)().finally(() => clearInterval(resave))
      expect(await created(port, token), 'the token printed at start, after a restart').to.equal(200)
    } finally {
      utimesSync(source, atime, mtime)
    }
    process.kill(child.pid as number, 'SIGTERM')
    await once(child, 'close')
  })
})
