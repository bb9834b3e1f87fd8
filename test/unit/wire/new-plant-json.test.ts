import { expect } from 'chai'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { errorAnswer, ERROR_STATUS_LIST, newPlantJsonText, readErrorDocument } from '../../../wire/index.js'
import { parseExactJson } from '../../../wire/exact-json/index.js'
import { decodeNewPlant, INT64_MAX, INT64_MIN, newPlant, type NewPlant } from '../../../core/index.js'
import { propertyRuns } from '../../support/property-runs.js'

// What a client writes, read back as the service reads it: the exact JSON reader, then the core.

// Any string the core takes for a name or a tag: every code unit, lone surrogates filtered out.
const text = fc.string({ unit: 'binary', maxLength: 40 }).filter((value) => value.isWellFormed())

const plant: fc.Arbitrary<NewPlant> = fc
  .record({ id: fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), name: text, tag: fc.option(text, { nil: undefined }) })
  .map((fields) => {
    const made = newPlant(fields)
    if (E.isLeft(made)) throw new Error(`the arbitrary made an invalid NewPlant: ${JSON.stringify(made.left.violations)}`)
    return made.right
  })

describe('the NewPlant as JSON text', function () {
  it('reads back, through the exact JSON reader and the core, as the NewPlant that was written', function () {
    fc.assert(
      fc.property(plant, (written) => {
        const parsed = parseExactJson(new TextEncoder().encode(newPlantJsonText(written)))
        expect(parsed, 'valid JSON').to.satisfy(E.isRight)
        const read = E.isRight(parsed) ? decodeNewPlant(parsed.right) : parsed
        expect(read).to.deep.equal(E.right(written))
      }),
      { numRuns: propertyRuns(500) },
    )
  })

  it('writes the id as its exact digits at both ends of the int64 range', function () {
    for (const id of [INT64_MIN, INT64_MAX, 9007199254740993n]) {
      const made = newPlant({ id, name: 'Fern' })
      if (E.isLeft(made)) expect.fail('a valid NewPlant')
      expect(newPlantJsonText(made.right)).to.equal(`{"id":${id},"name":"Fern"}`)
    }
  })
})

describe('the Error answer', function () {
  it('is its document as JSON text, with the type and the byte length of that text, for every status', function () {
    fc.assert(
      fc.property(fc.constantFrom(...ERROR_STATUS_LIST), fc.string({ unit: 'grapheme', maxLength: 60 }), (status, message) => {
        const answer = errorAnswer(status, message, { 'Retry-After': '1' })
        expect(answer.status).to.equal(status)
        expect(answer.headers).to.deep.equal({ 'Retry-After': '1' })
        expect(answer.wireHeaders).to.deep.equal({
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': String(Buffer.byteLength(answer.text)),
          'Retry-After': '1',
        })
        expect(readErrorDocument(JSON.parse(answer.text), status)).to.deep.equal(E.right({ error: status, message }))
      }),
    )
  })
})
