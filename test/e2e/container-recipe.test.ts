import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { runInNewContext } from 'node:vm'
import * as E from 'fp-ts/lib/Either.js'
import { loadConfig } from '../../apps/server/config.js'
import { composeService, durationMs, environmentOf, readComposeFile } from '../support/compose.js'
import { copyFiles, ROOT } from '../support/clean-clone.js'
import { useCurrentBuild } from '../support/current-build.js'
import { copyOf, envOf, execForm, stagesOf, type Stage } from '../support/dockerfile.js'
import { reportPending } from '../support/pending.js'
import { startServiceProcess } from '../support/service-process.js'
import { freePort } from '../support/free-port.js'

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
      // The image is production: in memory only on purpose, as the README's docker run asks for it.
      { ...env, HOST: '127.0.0.1', PORT: '0', PLANT_STORE_TOKENS: TOKEN, ALLOW_IN_MEMORY_STORAGE: 'on', SHUTDOWN_DRAIN_MS: '1000' },
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
      expect(await service.exited, 'the exit status after the drain').to.equal(0)
      expect(await probeOnce(port), 'the health check of a stopped service').to.equal(1)
    } finally {
      await service.stop('SIGKILL')
    }
  })

  it('has a liveness health check: it passes while storage cannot be reached, when /readyz says 503', async function () {
    const runtime = stage('runtime')
    const [, ...rest] = execForm(args(runtime, 'CMD')[0] ?? '[]')
    const storage = await freePort()
    const service = startServiceProcess(
      { ...env, HOST: '127.0.0.1', PORT: '0', PLANT_STORE_TOKENS: TOKEN, MONGODB_URI: `mongodb://127.0.0.1:${storage}/?serverSelectionTimeoutMS=300` },
      { argv: [process.execPath, ...rest], cwd: dir },
    )
    const healthcheck = args(runtime, 'HEALTHCHECK')[0] ?? ''
    const [probe = 'node', ...probeArgs] = execForm(healthcheck.slice(healthcheck.indexOf('CMD ') + 4))
    try {
      const url = await service.listening
      expect((await fetch(`${url}/readyz`)).status, '/readyz with storage down').to.equal(503)
      const status = await run(probe === 'node' ? process.execPath : probe, probeArgs, { env: { ...env, PORT: new URL(url).port } }).then(
        () => 0,
        (error: { code?: number }) => error.code ?? 1,
      )
      expect(status, 'the container health check with storage down: the engine must not restart it').to.equal(0)
    } finally {
      await service.stop('SIGKILL')
    }
  })
})

// What compose.yaml promises that can be checked without an engine: it is read as the engine
// reads it, and the parts that run (the replica set's initiation script, the instances'
// environment) are run against stand-ins.
describe('the compose deployment, read without a container engine', function () {
  const compose = readComposeFile()
  const instances = Object.entries(compose.services).filter(([, service]) => service.image === 'plant-store')
  const members = Object.entries(compose.services).filter(([, service]) => JSON.stringify(service.command ?? '').includes('--replSet'))

  // The mongosh script of `mongo-init`, run in a context where `rs`, `db` and `sleep` are stand-ins.
  const runInitiation = (options: { readonly initiated: boolean; readonly primaryAfterHellos: number; readonly primary: string }) => {
    const command = composeService(compose, 'mongo-init').command
    if (!Array.isArray(command)) expect.fail('mongo-init has no command list')
    const script = String(command[command.indexOf('--eval') + 1] ?? '')
    const initiated: unknown[] = []
    let hellos = 0
    let sleeps = 0
    const context = {
      rs: {
        status: () => {
          if (!options.initiated) throw new Error('no replset config has been received')
          return { ok: 1 }
        },
        initiate: (config: unknown) => initiated.push(config),
      },
      db: {
        hello: () => {
          hellos += 1
          return hellos < options.primaryAfterHellos
            ? { isWritablePrimary: false, secondary: false }
            : { isWritablePrimary: options.primary === 'mongo1:27017', secondary: options.primary !== 'mongo1:27017', primary: options.primary }
        },
      },
      sleep: () => {
        sleeps += 1
        if (sleeps > 100) throw new Error('still waiting after 100 sleeps')
      },
    }
    runInNewContext(script, context, { timeout: 5_000 })
    return { initiated, hellos }
  }

  it('initiates the replica set once, then waits for a primary, whichever member the election makes it', function () {
    for (const primary of ['mongo1:27017', 'mongo2:27017', 'mongo3:27017']) {
      const { initiated, hellos } = runInitiation({ initiated: false, primaryAfterHellos: 3, primary })
      expect(initiated, `with ${primary} elected`).to.have.length(1)
      expect(hellos, `with ${primary} elected`).to.equal(3)
    }
    expect(JSON.stringify(runInitiation({ initiated: false, primaryAfterHellos: 1, primary: 'mongo1:27017' }).initiated)).to.include('mongo3:27017')
    expect(runInitiation({ initiated: true, primaryAfterHellos: 1, primary: 'mongo3:27017' }).initiated, 'a set already initiated').to.have.length(0)
  })

  it("keeps each replica set member's data in a named volume of its own, which `docker compose down` leaves", function () {
    expect(members.map(([name]) => name)).to.have.length(3)
    const declared = Object.keys(compose.volumes ?? {})
    const sources = members.map(([name, service]) => {
      const data = (service.volumes ?? []).find((volume) => volume.endsWith(':/data/db'))
      expect(data, `${name}'s /data/db`).to.be.a('string')
      const source = (data ?? '').split(':')[0] ?? ''
      expect(declared, `${name}'s /data/db is a named volume`).to.include(source)
      return source
    })
    expect(new Set(sources).size, 'one volume per member').to.equal(members.length)
  })

  it('checks liveness in the container, and leaves readiness to the load balancer', function () {
    const healthcheck = args(stage('runtime'), 'HEALTHCHECK')[0] ?? ''
    expect(healthcheck).to.include('/healthz')
    expect(healthcheck).not.to.include('/readyz')
    expect(instances.map(([name]) => name)).to.have.length(2)
    for (const [name, service] of instances) {
      expect(JSON.stringify(service.healthcheck ?? {}), `${name} keeps the image's health check`).not.to.include('/readyz')
    }
    const balancer = composeService(compose, 'load-balancer').depends_on
    for (const [name] of instances) expect(balancer, `the load balancer starts after ${name} is live`).to.deep.include({ [name]: { condition: 'service_healthy' } })
  })

  it("gives each instance's stop more time than its drain and grace before the engine's SIGKILL", function () {
    // The service's own reading of the environment compose gives it, plus the second its logs get to flush.
    for (const [name, service] of instances) {
      const config = loadConfig(environmentOf(service, { PLANT_STORE_TOKENS: TOKEN }))
      if (E.isLeft(config)) expect.fail(`${name}'s environment: ${config.left.join('; ')}`)
      const { drainMs, graceMs } = config.right.shutdown
      expect(durationMs(service.stop_grace_period ?? '10s'), `${name}'s stop_grace_period`).to.be.above(drainMs + graceMs + 1_000)
    }
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const timeout = /docker run --stop-timeout (\d+) /.exec(readme)?.[1]
    expect(timeout, "the README's docker run gives --stop-timeout").to.be.a('string')
    const defaults = loadConfig({ PLANT_STORE_TOKENS: TOKEN })
    if (E.isLeft(defaults)) expect.fail(defaults.left.join('; '))
    expect(Number(timeout) * 1_000).to.be.above(defaults.right.shutdown.drainMs + defaults.right.shutdown.graceMs + 1_000)
  })

  it('commits no token: compose refuses to start each instance until PLANT_STORE_TOKENS is set where it runs, naming it', function () {
    for (const [name, service] of instances) {
      expect(() => environmentOf(service), name).to.throw(/^compose refuses to start: PLANT_STORE_TOKENS: set PLANT_STORE_TOKENS to the tokens/)
      expect(() => environmentOf(service, { PLANT_STORE_TOKENS: '' }), `${name}, set empty`).to.throw(/PLANT_STORE_TOKENS/)
      expect(environmentOf(service, { PLANT_STORE_TOKENS: TOKEN })['PLANT_STORE_TOKENS'], name).to.equal(TOKEN)
    }
    // No fallback in the file that the service would take as a token.
    const file = readFileSync(join(ROOT, 'compose.yaml'), 'utf8')
    for (const [, fallback = ''] of file.matchAll(/\$\{PLANT_STORE_TOKENS:?-([^}]*)\}/g)) expect.fail(`compose.yaml falls back to a token: ${fallback}`)
  })

  it("lifts the instances' per-address share behind the load balancer, where every client has its address", function () {
    for (const [name, service] of instances) {
      const config = loadConfig(environmentOf(service, { PLANT_STORE_TOKENS: TOKEN }))
      if (E.isLeft(config)) expect.fail(`${name}'s environment: ${config.left.join('; ')}`)
      expect(config.right.serverLimits.maxConnectionsPerAddress, name).to.equal(config.right.serverLimits.maxConnections)
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
    const { stdout: id } = await run(engine, ['run', '-d', '-e', `PLANT_STORE_TOKENS=${TOKEN}`, '-e', 'ALLOW_IN_MEMORY_STORAGE=on', '-p', '127.0.0.1::3000', 'plant-store:test'])
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
      await run(engine, [...compose, 'up', '-d', '--build', '--wait'], { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PLANT_STORE_TOKENS: TOKEN } })
      const response = await fetch('http://127.0.0.1:8080/plants', {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: '{"id":9007199254740993,"name":"Fern"}',
      })
      expect(response.status).to.equal(200)
      const again = await fetch('http://127.0.0.1:8080/plants', {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: '{"id":9007199254740993,"name":"Other"}',
      })
      expect(again.status, 'the other instance sees the stored plant').to.equal(409)
    } finally {
      await run(engine, [...compose, 'down', '-v'], { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PLANT_STORE_TOKENS: TOKEN } }).catch(() => undefined)
    }
  })
})
