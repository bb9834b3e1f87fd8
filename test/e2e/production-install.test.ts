import { expect } from 'chai'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { copyFiles, npm, ROOT } from '../support/clean-clone.js'
import { useCurrentBuild } from '../support/current-build.js'
import { reportPending } from '../support/pending.js'
import { startServiceProcess } from '../support/service-process.js'

// The service as an operator deploys it without a container: a build, then a production-only
// install beside it, then one node command. The README gives these steps; this test runs them in a
// directory outside the repository, so a runtime library declared only for development (as pino
// once was) fails here.

const README = readFileSync(join(ROOT, 'README.md'), 'utf8')

// No install scripts, as the Dockerfile installs: none is needed to run the service, and one of
// swagger-ui-dist's dependencies (@scarf/scarf) reports the install to a telemetry service.
const INSTALL = ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline']
const START = 'node dist/apps/server/main.js'

// What a production install needs beside the build: the manifests npm reads.
const MANIFESTS = ['package.json', 'package-lock.json', 'apps/server/package.json']

// Development tools that must not be there: the compiler, the test runner, the TypeScript runner.
const DEVELOPMENT_ONLY = ['typescript', 'mocha', 'tsx', 'eslint', 'mongodb-memory-server']

const TOKEN = 'production-install-token-0001'

describe('the production install: npm ci --omit=dev and one node command', function () {
  this.timeout(180_000)
  useCurrentBuild()
  let dir = ''

  before(async function () {
    try {
      await npm(['--version'], ROOT)
    } catch {
      reportPending('the production install', 'npm is not on PATH here')
      this.skip()
    }
    dir = mkdtempSync(join(tmpdir(), 'plant-store-production-'))
    const dist = readdirSync(join(ROOT, 'dist'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(ROOT.length))
    copyFiles([...MANIFESTS, ...dist], dir)
    await npm(INSTALL, dir)
  })

  after(function () {
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  it("is the install the README's production section gives", function () {
    const section = README.slice(README.indexOf('\n## Operating in production\n'))
    expect(section).to.include(`\nnpm ${INSTALL.slice(0, 3).join(' ')}\n`)
    expect(section).to.include(` ${START}\n`)
  })

  it('installs the service\'s runtime libraries and none of the development tools', function () {
    for (const name of ['koa', '@koa/router', 'content-type', 'pino', 'prom-client', '@opentelemetry/api', 'jose', 'mongodb', 'lossless-json', 'swagger-ui-dist', 'fp-ts', 'io-ts']) {
      expect(existsSync(join(dir, 'node_modules', name, 'package.json')), name).to.equal(true)
    }
    for (const name of DEVELOPMENT_ONLY) expect(existsSync(join(dir, 'node_modules', name)), name).to.equal(false)
  })

  it('starts with one node command, stores a plant, and drains on SIGTERM with exit status 0', async function () {
    const [program = 'node', ...args] = START.split(' ')
    const service = startServiceProcess(
      // In memory on purpose: the install is under test here, not a database.
      { PLANT_STORE_TOKENS: TOKEN, SHUTDOWN_DRAIN_MS: '0', NODE_ENV: 'production', ALLOW_IN_MEMORY_STORAGE: 'on' },
      { argv: [program === 'node' ? process.execPath : program, ...args], cwd: dir },
    )
    try {
      const url = await service.listening
      const response = await fetch(`${url}/plants`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: '{"id":9007199254740993,"name":"Fern","tag":"shade"}',
      })
      expect(response.status).to.equal(200)
      expect(await response.json()).to.deep.equal({ name: 'Fern', tag: 'shade' })
      const docs = await fetch(`${url}/docs`)
      expect(docs.status, 'the /docs page, from swagger-ui-dist').to.equal(200)
    } finally {
      expect(await service.stop('SIGTERM')).to.equal(0)
    }
    expect(service.stdout()).to.include('"msg":"stopped"')
  })
})
