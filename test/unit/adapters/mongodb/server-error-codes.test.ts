import { expect } from 'chai'
import {
  CODES_IN_TRANSIENT_CATEGORIES,
  CODES_IN_UNREACHABLE_CATEGORIES,
  CONFIGURATION_FAULT_CODES,
  TRANSIENT_CATEGORIES,
  TRANSIENT_OUTSIDE_CATEGORIES,
  UNREACHABLE_CATEGORIES,
} from '../../../../adapters/mongodb/server-error-codes.js'
import { codesInCategories, ERROR_CATEGORIES, serverErrorCode } from '../../../support/mongo-peer/error-codes.js'
import { REQUIRED_TRANSIENT_CATEGORIES } from '../../../support/mongodb/transient-codes.js'

// The adapter's tables of server codes, held to the copy of mongod's error_codes.yml kept in
// test/support/mongo-peer: copy a newer file there, and this says what the adapter must learn.
describe("the MongoDB adapter's server error codes, against mongod's error_codes.yml", function () {
  const asEntries = (codes: ReadonlyArray<{ code: number; name: string }>) => codes.map(({ code, name }) => [code, name])

  it('names only categories the file declares, the required ones among them', function () {
    expect(ERROR_CATEGORIES).to.include.members([...TRANSIENT_CATEGORIES, ...UNREACHABLE_CATEGORIES])
    expect(TRANSIENT_CATEGORIES).to.include.members(REQUIRED_TRANSIENT_CATEGORIES)
  })

  it('lists every code of its transient categories, by the name the file gives it, and no other', function () {
    expect([...CODES_IN_TRANSIENT_CATEGORIES]).to.deep.equal(asEntries(codesInCategories(TRANSIENT_CATEGORIES)))
  })

  it('lists every code of its unreachable categories, and no other', function () {
    expect([...CODES_IN_UNREACHABLE_CATEGORIES]).to.deep.equal(codesInCategories(UNREACHABLE_CATEGORIES).map(({ code }) => code))
  })

  it('adds transient codes only from outside those categories, each named as the file names it', function () {
    for (const [code, name] of TRANSIENT_OUTSIDE_CATEGORIES) {
      const entry = serverErrorCode(code)
      expect(entry?.name, `code ${code}`).to.equal(name)
      expect(entry?.categories.filter((category) => (TRANSIENT_CATEGORIES as ReadonlyArray<string>).includes(category)), name).to.deep.equal([])
    }
  })

  it('calls a configuration fault only codes the file has, by their names, and none of them transient', function () {
    for (const [code, { name }] of CONFIGURATION_FAULT_CODES) {
      const entry = serverErrorCode(code)
      expect(entry?.name, `code ${code}`).to.equal(name)
      expect(CODES_IN_TRANSIENT_CATEGORIES.has(code) || TRANSIENT_OUTSIDE_CATEGORIES.has(code), name).to.equal(false)
    }
  })
})
