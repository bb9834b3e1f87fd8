import { expect } from 'chai'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { reportPending } from '../../../support/pending.js'
import { installTools } from '../../../support/tools.js'

// No mongod can run on a developer's machine here, so the real-server layer of the MongoDB tests
// is pending there; the CI workflow is where it runs, required (REQUIRE_MONGODB=1) rather than
// pending. These tests keep that workflow valid and saying so.
const WORKFLOW = '.github/workflows/ci.yml'

interface Step {
  readonly run?: string
  readonly env?: Readonly<Record<string, string>>
}
interface Job {
  readonly env?: Readonly<Record<string, string>>
  readonly steps: ReadonlyArray<Step>
  readonly strategy?: { readonly matrix?: { readonly node?: ReadonlyArray<string> } }
}

// action-validator has an install of its own (with the OpenAPI linters), made by the first test
// that needs it.
const lint = (test: Mocha.Context, path: string) => {
  test.timeout(120_000)
  const linters = installTools('tools/linters')
  if ('missing' in linters) {
    reportPending('the workflow linter', linters.missing)
    test.skip()
  }
  const linter = createRequire(join(linters.folder, 'package.json')).resolve('@action-validator/cli/cli.mjs')
  return spawnSync(process.execPath, [linter, path], { encoding: 'utf8' })
}

describe('the CI workflow that runs the tests against a real MongoDB', function () {
  this.timeout(20_000)
  const text = readFileSync(WORKFLOW, 'utf8')
  const jobs = Object.values((parse(text) as { jobs: Record<string, Job> }).jobs)

  it('passes the workflow linter (action-validator, installed from npm)', function () {
    const linted = lint(this, WORKFLOW)
    expect(linted.stderr).to.equal('')
    expect(linted.status).to.equal(0)
  })

  it('is checked by a linter that refuses a broken workflow', function () {
    const folder = mkdtempSync(join(tmpdir(), 'plant-store-workflow-'))
    try {
      const broken = join(folder, 'ci.yml')
      writeFileSync(broken, text.replace('runs-on: ubuntu-24.04', 'runs-in: ubuntu-24.04'))
      const linted = lint(this, broken)
      expect(linted.status).to.equal(1)
      expect(linted.stderr).to.include('runs-in')
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  it('runs the whole suite (npm run test:all) with REQUIRE_MONGODB=1, leaving MONGODB_URI unset so a replica set is started', function () {
    const testing = jobs.filter((job) => job.steps.some((step) => step.run?.trim() === 'npm run test:all'))
    expect(testing).to.have.length.above(0)
    for (const job of testing) {
      const step = job.steps.find((candidate) => candidate.run?.trim() === 'npm run test:all')
      const env = { ...job.env, ...step?.env }
      expect(env['REQUIRE_MONGODB']).to.equal('1')
      expect(env).to.not.have.property('MONGODB_URI')
    }
  })

  it('runs on the oldest Node version package.json accepts', function () {
    const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node
    const oldest = /^>=(\d+\.\d+)/.exec(engines)?.[1]
    const versions = jobs.flatMap((job) => job.strategy?.matrix?.node ?? [])
    expect(versions).to.include(oldest)
  })
})
