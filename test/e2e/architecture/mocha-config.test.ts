import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect } from 'chai'

// `npx mocha` and `npm test` run the same suite, every `*.test.ts` under test/ and nothing else
// (a support file loaded as a test could exit the run: the wire peer's entry point does), while
// `npx mocha FILE` runs that file alone. Mocha adds a configured spec to the files named on the
// command line, so .mocharc.json names none: mocha's default, test/, read recursively, with
// every file but the *.test.ts ones ignored.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const MOCHA = `${ROOT}node_modules/mocha/bin/mocha.js`
const ONE_FILE = 'test/unit/core/first-accepting.test.ts'

interface JsonReport {
  readonly stats: { readonly tests: number; readonly failures: number }
  readonly tests: ReadonlyArray<{ readonly file: string }>
}

const dryRun = async (args: ReadonlyArray<string>): Promise<JsonReport> => {
  const { stdout } = await promisify(execFile)(process.execPath, [MOCHA, ...args, '--dry-run', '--reporter', 'json'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  })
  return JSON.parse(stdout) as JsonReport
}

const filesOf = (report: JsonReport): ReadonlySet<string> => new Set(report.tests.map((test) => test.file))

const testFilesOnDisk = (): ReadonlySet<string> =>
  new Set(
    readdirSync(`${ROOT}test`, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => `${ROOT}test/${file}`),
  )

/** The arguments `npm test` gives mocha: its test script's last command, after `mocha`. */
const npmTestMochaArgs = (): ReadonlyArray<string> => {
  const { scripts } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }
  const last = (scripts['test'] ?? '').split('&&').at(-1)?.trim() ?? ''
  const [command, ...args] = last.split(/\s+/)
  expect(command, 'npm test ends with mocha').to.equal('mocha')
  return args.map((arg) => arg.replace(/^'(.*)'$/, '$1'))
}

describe('the mocha configuration', function () {
  this.timeout(120_000)

  it('has `npx mocha` load every test file under test/ and nothing else', async () => {
    const report = await dryRun([])
    expect(report.stats.tests).to.be.greaterThan(0)
    expect([...filesOf(report)].sort()).to.deep.equal([...testFilesOnDisk()].sort())
  })

  it('has `npx mocha` run exactly the tests `npm test` runs', async () => {
    const [bare, npmTest] = await Promise.all([dryRun([]), dryRun(npmTestMochaArgs())])
    expect(bare.stats.tests).to.equal(npmTest.stats.tests)
    expect([...filesOf(bare)].sort()).to.deep.equal([...filesOf(npmTest)].sort())
  })

  it('runs only the file named on the command line', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [MOCHA, '--reporter', 'json', ONE_FILE], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    })
    const report = JSON.parse(stdout) as JsonReport
    expect(report.stats.tests).to.be.greaterThan(0)
    expect(report.stats.failures).to.equal(0)
    expect(filesOf(report)).to.deep.equal(new Set([`${ROOT}${ONE_FILE}`]))
  })
})
