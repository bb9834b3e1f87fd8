import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { brokenPlantStores } from '../../../testing/index.js'

// plant-store/testing/node-test and plant-store/testing/mocha, run as a user runs them: the
// runner's own command on a file that passes the runner's describe and it as they are (the files
// type-check with the project: no cast). A case that cannot run is skipped with its reason; a
// broken store fails, naming the rule it breaks.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const FIXTURES = 'test/e2e/testing/runners'

const RUNNERS = {
  // TAP, named: Node 26 writes its spec reporter by default wherever the output goes.
  'node:test': ['--import', 'tsx', '--test', '--test-reporter=tap', `${FIXTURES}/contract.node-test.ts`],
  mocha: [`${ROOT}node_modules/mocha/bin/mocha.js`, '--no-config', '--node-option', 'import=tsx', `${FIXTURES}/contract.mocha.ts`],
} as const

const runUnder = async (runner: keyof typeof RUNNERS, store: string): Promise<{ readonly code: number; readonly output: string }> => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, RUNNERS[runner], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', STORE: store },
      maxBuffer: 16 * 1024 * 1024,
    })
    return { code: 0, output: stdout + stderr }
  } catch (error) {
    const { code, stdout = '', stderr = '' } = error as { code?: number; stdout?: string; stderr?: string }
    return { code: code ?? 1, output: stdout + stderr }
  }
}

const REASON = 'the fixture gives no cutOff, so storage cannot be cut off'

describe('the ready-made runners of plant-store/testing', function () {
  this.timeout(60_000)

  it('pass a correct store under node:test and mocha', async function () {
    const [nodeTest, mocha] = await Promise.all([runUnder('node:test', 'correct'), runUnder('mocha', 'correct')])
    expect(nodeTest.code, nodeTest.output).to.equal(0)
    expect(nodeTest.output).to.match(/# pass 7\n/).and.match(/# skipped 0\n/)
    expect(mocha.code, mocha.output).to.equal(0)
    expect(mocha.output).to.match(/7 passing/).and.not.match(/pending/)
  })

  it('skip, with its reason, a case that cannot run here: never a pass, never a failure', async function () {
    const [nodeTest, mocha] = await Promise.all([runUnder('node:test', 'no-cut-off'), runUnder('mocha', 'no-cut-off')])
    expect(nodeTest.code, nodeTest.output).to.equal(0)
    expect(nodeTest.output).to.match(/# pass 6\n/).and.match(/# skipped 1\n/).and.include(`# SKIP ${REASON}`)
    expect(mocha.code, mocha.output).to.equal(0)
    expect(mocha.output).to.match(/6 passing/).and.match(/1 pending/).and.include(`(skipped: ${REASON})`)
  })

  it('fail each broken store the kit ships, naming the rule it breaks', async function () {
    for (const [store, { breaks }] of Object.entries(brokenPlantStores)) {
      const [nodeTest, mocha] = await Promise.all([runUnder('node:test', store), runUnder('mocha', store)])
      expect(nodeTest.code, `node:test, ${store}`).to.not.equal(0)
      expect(nodeTest.output, `node:test, ${store}`).to.include(`${breaks} broken`)
      expect(mocha.code, `mocha, ${store}`).to.not.equal(0)
      expect(mocha.output, `mocha, ${store}`).to.include(`${breaks} broken`)
    }
  })
})
