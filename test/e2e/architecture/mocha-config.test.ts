import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect } from 'chai'

// `npx mocha` runs every `*.test.ts` under test/ and nothing else (a support file loaded as a test
// could exit the run: the wire peer's entry point does); `npm test` runs test/unit and
// test/integration in parallel, `npm run test:e2e` runs test/e2e, and `npm run test:all` runs both
// commands, the second whatever the first answered, which .ci/run runs; `npx mocha FILE` runs that file alone. Mocha adds a configured spec
// to the files named on the command line, so .mocharc.json names none: mocha's default, test/, read
// recursively, with every file but the *.test.ts ones ignored.
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

const testFilesOnDisk = (under = 'test'): ReadonlySet<string> =>
  new Set(
    readdirSync(`${ROOT}${under}`, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => `${ROOT}${under}/${file}`),
  )

const scripts = (): Record<string, string> =>
  (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts

/** The arguments an npm script gives mocha: its last command, after `mocha`. */
const mochaArgsOf = (script: string): ReadonlyArray<string> => {
  const last = (scripts()[script] ?? '').split('&&').at(-1)?.trim() ?? ''
  const [command, ...args] = last.split(/\s+/)
  expect(command, `npm run ${script} ends with mocha`).to.equal('mocha')
  return args.map((arg) => arg.replace(/^'(.*)'$/, '$1'))
}

const sorted = (files: Iterable<string>) => [...files].sort()

describe('the mocha configuration', function () {
  this.timeout(120_000)

  it('has `npx mocha` load every test file under test/ and nothing else', async () => {
    const report = await dryRun([])
    expect(report.stats.tests).to.be.greaterThan(0)
    expect([...filesOf(report)].sort()).to.deep.equal([...testFilesOnDisk()].sort())
  })

  it('has `npm test` run test/unit and test/integration in parallel, after the type check and lint', async () => {
    const args = mochaArgsOf('test')
    expect(args).to.include('--parallel')
    expect(scripts()['test']).to.match(/^node scripts\/static-checks\.mjs && mocha /)
    const report = await dryRun(args)
    expect(sorted(filesOf(report))).to.deep.equal(sorted([...testFilesOnDisk('test/unit'), ...testFilesOnDisk('test/integration')]))
  })

  // Files, not test counts: with every file in one process, as `npx mocha` loads them, mocha counts
  // and attributes the shared contract suites' cases otherwise than in two runs.
  it('has `npm run test:all` run `npm test` and then test/e2e, together every test file `npx mocha` runs', async () => {
    expect(scripts()['test:all']).to.equal('node scripts/test-all.mjs')
    const [bare, npmTest, e2e] = await Promise.all([dryRun([]), dryRun(mochaArgsOf('test')), dryRun(mochaArgsOf('test:e2e'))])
    expect(sorted(filesOf(e2e))).to.deep.equal(sorted(testFilesOnDisk('test/e2e')))
    expect(sorted([...filesOf(npmTest), ...filesOf(e2e)])).to.deep.equal(sorted(filesOf(bare)))
  })

  // Runs one of the scripts under a stand-in npm that prints what it was asked to run and exits
  // with `exitWith(args)`, a JavaScript expression over the arguments it was given.
  const underStandInNpm = (script: string, exitWith: string) => {
    const fakeNpm = `const args = process.argv.slice(2); process.stdout.write('ran ' + args.join(' ') + '\\n'); process.exit(${exitWith})`
    const dir = mkdtempSync(join(tmpdir(), 'stand-in-npm-'))
    writeFileSync(join(dir, 'npm-cli.mjs'), fakeNpm)
    try {
      const child = spawnSync(process.execPath, [`${ROOT}scripts/${script}`], {
        cwd: ROOT,
        env: { ...process.env, npm_execpath: join(dir, 'npm-cli.mjs') },
        encoding: 'utf8',
      })
      return { status: child.status, stdout: child.stdout, stderr: child.stderr }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  // The npm it is given answers each step as told: `test:all` must run both, whatever the first answered.
  const testAllWith = (statuses: { readonly test: number; readonly e2e: number }) =>
    underStandInNpm('test-all.mjs', `args[0] === 'test' ? ${statuses.test} : ${statuses.e2e}`)

  it('has `npm run test:all` run the end-to-end tier even when `npm test` fails, and fail naming which step did', () => {
    const bothFail = testAllWith({ test: 1, e2e: 3 })
    expect(bothFail.stdout).to.equal('ran test\nran run test:e2e\n')
    expect(bothFail.status).to.equal(1)
    expect(bothFail.stderr).to.contain('test:all: failed: npm test and npm run test:e2e')
    const unitFails = testAllWith({ test: 1, e2e: 0 })
    expect(unitFails.stdout).to.equal('ran test\nran run test:e2e\n')
    expect([unitFails.status, unitFails.stderr]).to.deep.equal([1, 'test:all: failed: npm test\n'])
    const e2eFails = testAllWith({ test: 0, e2e: 1 })
    expect([e2eFails.status, e2eFails.stderr]).to.deep.equal([1, 'test:all: failed: npm run test:e2e\n'])
    const passes = testAllWith({ test: 0, e2e: 0 })
    expect([passes.status, passes.stderr]).to.deep.equal([0, 'test:all: passed: npm test and npm run test:e2e\n'])
  })

  // The npm it is given answers each check as told: both run, side by side, whatever the other answered.
  const staticChecksWith = (statuses: { readonly typecheck: number; readonly lint: number }) => {
    const { status, stdout, stderr } = underStandInNpm('static-checks.mjs', `args.at(-1) === 'typecheck' ? ${statuses.typecheck} : ${statuses.lint}`)
    return { status, ran: stdout.split('\n').filter((line) => line.startsWith('ran ')).sort(), stderr }
  }

  it('has `npm test` run the type check and ESLint, both without their pre-scripts, and fail naming which failed', () => {
    const both = ['ran run --ignore-scripts lint', 'ran run --ignore-scripts typecheck']
    const bothFail = staticChecksWith({ typecheck: 2, lint: 1 })
    expect([bothFail.status, bothFail.ran]).to.deep.equal([1, both])
    expect(bothFail.stderr).to.contain('static checks: failed: npm run typecheck and npm run lint')
    const lintFails = staticChecksWith({ typecheck: 0, lint: 1 })
    expect([lintFails.status, lintFails.ran]).to.deep.equal([1, both])
    expect(lintFails.stderr).to.contain('static checks: failed: npm run lint\n')
    const passes = staticChecksWith({ typecheck: 0, lint: 0 })
    expect([passes.status, passes.ran]).to.deep.equal([0, both])
    expect(passes.stderr).not.to.contain('failed')
  })

  it("has .ci/run run `npm test` on each Node line, and the long suite on the image's line", () => {
    const run = readFileSync(`${ROOT}.ci/run`, 'utf8')
    const loop = /^for line in "\$\{NODE_LINES\[@\]\}"; do\n([^]*?)^done$/m.exec(run)?.[1] ?? expect.fail('.ci/run has no loop over NODE_LINES')
    expect(loop).to.include('if [ "$line" = "$IMAGE_LINE" ]; then script=(run test:all); else script=(test); fi')
    expect(loop).to.include('on_line "$line" npm "${script[@]}"')
    expect(run).to.match(/^IMAGE_LINE=\$\(sed -n .* Dockerfile/m)
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
