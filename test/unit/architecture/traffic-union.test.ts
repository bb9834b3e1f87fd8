import { expect } from 'chai'
import { openApiDocument } from '../../../adapters/http/index.js'
import { TEST_BODY_LIMIT_BYTES } from '../../support/limits.js'
import { documentedAnswers } from '../../support/openapi-traffic.js'
import { unproducedByRun, type Seen } from '../../support/traffic-union.js'

// `npm test` runs its files in parallel workers, each of which sees only its own traffic: the
// check that every documented answer was produced is made on the union of what they wrote down.
const document = openApiDocument('', { bodyLimitBytes: TEST_BODY_LIMIT_BYTES })
const { keys, examples } = documentedAnswers(document)
const [firstKey = '', ...otherKeys] = [...keys]
const FILES = ['/t/unit/a.test.ts', '/t/integration/b.test.ts']

const seen = (files: ReadonlyArray<string>, keysSeen: ReadonlyArray<string>, complete = true): Seen => ({
  files,
  complete,
  keys: keysSeen,
  errorBodies: [...examples],
})

describe('the traffic check over the workers of one run', () => {
  it('passes when the workers together produced every documented answer', () => {
    const records = [seen([FILES[0] ?? ''], [firstKey]), seen([FILES[1] ?? ''], otherKeys)]
    expect(unproducedByRun(records, FILES, document)).to.deep.equal([])
  })

  it('names an answer no worker produced', () => {
    const records = [seen([FILES[0] ?? ''], otherKeys), seen([FILES[1] ?? ''], otherKeys)]
    expect(unproducedByRun(records, FILES, document)).to.deep.equal([`no test produced ${firstKey}`])
  })

  it('names an Error example no worker was answered', () => {
    const [example = ''] = [...examples]
    const records = [{ ...seen(FILES, [...keys]), errorBodies: [...examples].filter((body) => body !== example) }]
    expect(unproducedByRun(records, FILES, document)).to.deep.equal([`no test was answered the example ${example}`])
  })

  it('claims nothing for a run that left out a file or had a test fail', () => {
    expect(unproducedByRun([seen([FILES[0] ?? ''], [])], FILES, document)).to.equal(undefined)
    expect(unproducedByRun([seen(FILES, [], false)], FILES, document)).to.equal(undefined)
  })
})
