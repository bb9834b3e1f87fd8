import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { copyFiles, ROOT } from '../support/clean-clone.js'
import { useCurrentBuild } from '../support/current-build.js'
import { copyOf, envOf, execForm, stagesOf, type Stage } from '../support/dockerfile.js'
import { reportPending } from '../support/pending.js'
import { startServiceProcess } from '../support/service-process.js'

// The container recipe, checked two ways. Here, on any machine: the runtime stage's own steps
// (its COPYs, RUNs, ENV, CMD and HEALTHCHECK, read from the Dockerfile) run in a temporary
// directory standing for the image, so a recipe that no longer matches the project fails. Where a
// container engine can build: the image itself, and the compose file's deployment.

const run = promisify(execFile)
const DOCKERFILE = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
const DOCKERIGNORE = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
const TOKEN = 'container-recipe-token-0123456789'

const stage = (name: string): Stage => {
  const found = stagesOf(DOCKERFILE).find((s) => s.name === name)
  if (found === undefined) expect.fail(`the Dockerfile has no stage named ${name}`)
  return found
}
const args = (s: Stage, keyword: string): ReadonlyArray<string> => s.instructions.filter((i) => i.keyword === keyword).map((i) => i.text)

// The environment a RUN gets: the image's ENV over a plain PATH, and npm's settings as a user's
// shell has them (not those of the `npm test` running this).
const shellEnv = (env: Record<string, string>): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|INIT_CWD$)/i.test(key))),
  ...env,
})

describe('the container recipe, its runtime steps run outside a container', function () {
  this.timeout(180_000)
  useCurrentBuild()
  let dir = ''
  let env: Record<string, string> = {}

  before(async function () {
    const runtime = stage('runtime')
    const build = stage('build')
    expect(args(build, 'WORKDIR')).to.deep.equal(['/app'])
    expect(args(build, 'RUN').at(-1), "the build stage's last step is the project's build").to.equal('npm run build')
    dir = mkdtempSync(join(tmpdir(), 'plant-store-image-'))
    for (const { keyword, text } of runtime.instructions) {
      if (keyword === 'ENV') env = { ...env, ...envOf(text) }
      if (keyword === 'COPY') {
        const { from, sources, dest } = copyOf(text)
        if (from === 'build') {
          // The build stage's /app/dist is what `npm run build` makes here: this repository's dist/.
          expect(sources).to.deep.equal(['/app/dist'])
          cpSync(join(ROOT, 'dist'), join(dir, dest), { recursive: true })
        } else {
          const target = dest.endsWith('/') ? dest : `${dest}/`
          mkdirSync(join(dir, target), { recursive: true })
          for (const source of sources) {
            copyFiles([source], join(dir, '.copy'))
            cpSync(join(dir, '.copy', source), join(dir, target, source.split('/').at(-1) ?? source))
          }
          rmSync(join(dir, '.copy'), { recursive: true, force: true })
        }
      }
      if (keyword === 'RUN') {
        // Build-time flags (a cache mount) are the engine's business, not the step's.
        const command = text.replace(/^(--\S+\s+)+/, '')
        await run('sh', ['-c', command], { cwd: dir, env: shellEnv(env), maxBuffer: 64 * 1024 * 1024 })
      }
    }
  })

  after(function () {
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  it('keeps the build context to what the recipe copies', function () {
    const ignored = DOCKERIGNORE.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'))
    expect(ignored).to.include.members(['node_modules', 'dist', '.git', '.env'])
    for (const s of stagesOf(DOCKERFILE)) {
      for (const text of args(s, 'COPY')) {
        const { from, sources } = copyOf(text)
        if (from !== undefined) continue
        for (const source of sources) {
          expect(existsSync(join(ROOT, source)), `${source}, copied by the Dockerfile`).to.equal(true)
          expect(ignored, `${source} is copied, so it must not be ignored`).not.to.include(source.split('/')[0])
        }
      }
    }
  })

  it('runs as a user other than root, and says which port it listens on', function () {
    const runtime = stage('runtime')
    expect(args(runtime, 'USER')).to.deep.equal(['node'])
    expect(args(runtime, 'EXPOSE')).to.deep.equal([env['PORT']])
  })

  it('installs the production dependencies only', function () {
    expect(existsSync(join(dir, 'node_modules', 'koa', 'package.json'))).to.equal(true)
    for (const name of ['typescript', 'mocha', 'tsx']) expect(existsSync(join(dir, 'node_modules', name)), name).to.equal(false)
  })

  it('starts with its CMD, node itself, answers its health check, and drains on SIGTERM with status 0', async function () {
    const runtime = stage('runtime')
    const [program, ...rest] = execForm(args(runtime, 'CMD')[0] ?? '[]')
    expect(program, 'node receives the signals itself').to.equal('node')
    // The image listens on every interface; a test listens on loopback only, on a free port.
    const service = startServiceProcess(
      { ...env, HOST: '127.0.0.1', PORT: '0', PLANT_STORE_TOKENS: TOKEN, SHUTDOWN_DRAIN_MS: '1000' },
      { argv: [process.execPath, ...rest], cwd: dir },
    )
    const healthcheck = args(runtime, 'HEALTHCHECK')[0] ?? ''
    const [probe = 'node', ...probeArgs] = execForm(healthcheck.slice(healthcheck.indexOf('CMD ') + 4))
    const probeOnce = async (port: string): Promise<number> => {
      try {
        await run(probe === 'node' ? process.execPath : probe, probeArgs, { env: { ...env, PORT: port } })
        return 0
      } catch (error) {
        return (error as { code?: number }).code ?? 1
      }
    }
    try {
      const url = await service.listening
      const port = new URL(url).port
      expect(await probeOnce(port), 'the health check of a ready service').to.equal(0)
      const response = await fetch(`${url}/plants`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: '{"id":1,"name":"Fern"}',
      })
      expect(response.status).to.equal(200)
      service.child.kill('SIGTERM')
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(await probeOnce(port), 'the health check of a draining service').to.equal(1)
      expect(await service.exited, 'the exit status after the drain').to.equal(0)
    } finally {
      await service.stop('SIGKILL')
    }
  })
})

// Where docker or podman can build, the image and the compose deployment are tried for real.
const containerEngine = async (): Promise<string | { readonly missing: string }> => {
  for (const engine of ['docker', 'podman']) {
    try {
      await run(engine, ['info'], { timeout: 10_000 })
      return engine
    } catch {
      // try the next engine
    }
  }
  return { missing: 'no container engine runs here (neither `docker info` nor `podman info` answers), so the image cannot be built' }
}

describe('the container recipe, built and run by a container engine', function () {
  this.timeout(900_000)
  let engine = ''

  before(async function () {
    const found = await containerEngine()
    if (typeof found !== 'string') {
      reportPending('the container image and compose deployment', found.missing)
      this.skip()
    }
    engine = found
  })

  it('builds the image, whose service answers its health check as a non-root user', async function () {
    await run(engine, ['build', '-t', 'plant-store:test', ROOT], { maxBuffer: 64 * 1024 * 1024 })
    const { stdout: user } = await run(engine, ['run', '--rm', '--entrypoint', 'id', 'plant-store:test', '-u'])
    expect(user.trim()).not.to.equal('0')
    const { stdout: id } = await run(engine, ['run', '-d', '-e', `PLANT_STORE_TOKENS=${TOKEN}`, '-p', '127.0.0.1::3000', 'plant-store:test'])
    const container = id.trim()
    try {
      const { stdout: mapped } = await run(engine, ['port', container, '3000'])
      const url = `http://${mapped.trim().split('\n')[0] ?? ''}`
      let ready = false
      for (let attempt = 0; attempt < 60 && !ready; attempt += 1) {
        ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false)
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 500))
      }
      expect(ready, '/readyz in the container').to.equal(true)
      const { stdout: logs } = await run(engine, ['stop', '-t', '30', container]).then(() => run(engine, ['logs', container]))
      expect(logs).to.include('"msg":"stopped"')
    } finally {
      await run(engine, ['rm', '-f', container]).catch(() => undefined)
    }
  })

  it('runs compose.yaml: two instances behind the load balancer store a plant on the replica set', async function () {
    const compose = [engine === 'docker' ? 'compose' : 'compose', '-f', join(ROOT, 'compose.yaml'), '-p', 'plant-store-test']
    try {
      await run(engine, [...compose, 'up', '-d', '--build', '--wait'], { maxBuffer: 64 * 1024 * 1024 })
      const response = await fetch('http://127.0.0.1:8080/plants', {
        method: 'POST',
        headers: { Authorization: 'Bearer compose-token-change-me-0123456789', 'Content-Type': 'application/json' },
        body: '{"id":9007199254740993,"name":"Fern"}',
      })
      expect(response.status).to.equal(200)
      const again = await fetch('http://127.0.0.1:8080/plants', {
        method: 'POST',
        headers: { Authorization: 'Bearer compose-token-change-me-0123456789', 'Content-Type': 'application/json' },
        body: '{"id":9007199254740993,"name":"Other"}',
      })
      expect(again.status, 'the other instance sees the stored plant').to.equal(409)
    } finally {
      await run(engine, [...compose, 'down', '-v'], { maxBuffer: 64 * 1024 * 1024 }).catch(() => undefined)
    }
  })
})
