import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect } from 'chai'

// `npx mocha FILE` must run that file alone, and `npm test` the whole suite: mocha adds a `spec`
// from its configuration to the files named on the command line, so the configuration names no
// spec and the test script names the suite's glob.
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const MOCHA = `${ROOT}node_modules/mocha/bin/mocha.js`
const ONE_FILE = 'test/core/first-accepting.test.ts'

interface JsonReport {
  readonly stats: { readonly tests: number; readonly failures: number }
  readonly tests: ReadonlyArray<{ readonly file: string }>
}

describe('the mocha configuration', function () {
  this.timeout(120_000)

  it('is .mocharc.json at the top level, with no spec of its own', () => {
    const config = JSON.parse(readFileSync(`${ROOT}.mocharc.json`, 'utf8')) as Record<string, unknown>
    expect(config).not.to.have.property('spec')
  })

  it('runs only the file named on the command line', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [MOCHA, '--reporter', 'json', ONE_FILE], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    })
    const report = JSON.parse(stdout) as JsonReport
    expect(report.stats.tests).to.be.greaterThan(0)
    expect(report.stats.failures).to.equal(0)
    expect(new Set(report.tests.map((test) => test.file))).to.deep.equal(new Set([`${ROOT}${ONE_FILE}`]))
  })

  it('has npm test name every test file of the suite', () => {
    const { scripts } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }
    expect(scripts['test']).to.match(/ mocha 'test\/\*\*\/\*\.test\.ts'$/)
  })
})
