import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect } from 'chai'
import fc from 'fast-check'
import { PROPERTY_RUNS_SCALE, propertyRuns } from '../../support/property-runs.js'

// Every property test is sized by the one setting, PROPERTY_RUNS: the counts written in the tests
// go through propertyRuns, and the tests that write none get fast-check's default, scaled alike.
const TEST_ROOT = fileURLToPath(new URL('../../', import.meta.url))
// The wire fuzzer's command takes its count from its own --runs option.
const OWN_COUNT = ['support/wire-fuzz/main.ts']

describe('the size of property runs (PROPERTY_RUNS)', () => {
  it('gives fast-check a default of 100 runs, scaled', () => {
    expect(fc.readConfigureGlobal().numRuns).to.equal(propertyRuns(100))
    expect(propertyRuns(100)).to.equal(Math.max(1, Math.round(100 * PROPERTY_RUNS_SCALE)))
    expect(propertyRuns(1)).to.be.at.least(1)
  })

  it('sizes every count written in a test through propertyRuns', () => {
    const written = readdirSync(TEST_ROOT, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !OWN_COUNT.includes(file))
      .flatMap((file) =>
        readFileSync(`${TEST_ROOT}${file}`, 'utf8')
          .split('\n')
          .map((line, index) => ({ where: `test/${file}:${index + 1}`, line }))
          .filter(({ line }) => /\bnumRuns:\s*\d/.test(line)),
      )
      .map(({ where }) => where)
    expect(written, 'write numRuns: propertyRuns(N)').to.deep.equal([])
  })
})
