import { expect } from 'chai'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { schemaOfCodec } from '../../../../../adapters/http/openapi/codec-schemas.js'
import { openApiDocument } from '../../../../../adapters/http/openapi/document.js'
import { decodeNewPlant, Int64, WellFormedString, type NewPlant, type NewPlantFields } from '../../../../../core/index.js'
import { CREATE_PLANT, declaredFields, ERROR_STATUS_LIST, ErrorDocumentCodec, newPlantJsonText } from '../../../../../wire/index.js'
import { parseExactJson } from '../../../../../wire/exact-json/index.js'
import { textWithLoneSurrogate, wellFormedText } from '../../../../support/arbitraries.js'
import { TEST_BODY_LIMIT_BYTES } from '../../../../support/limits.js'
import { schemaValidatorFor } from '../../../../support/openapi-traffic.js'
import { propertyRuns } from '../../../../support/property-runs.js'

// The document's NewPlant, Plant and Error schemas are derived from the codecs the service reads
// and writes with, so a JSON Schema validator and the codec cannot disagree: a body the service
// reads is valid by the codec exactly when it is valid by the schema, and a body it writes is
// valid by the schema exactly when the codec takes it and it holds no field the codec does not
// declare. Numbers are generated where a validator that reads JSON numbers as doubles can tell
// what they are: integers within 2^53, and beyond the int64 range by far.

const document = openApiDocument('', { bodyLimitBytes: TEST_BODY_LIMIT_BYTES })
const validator = (name: string) => schemaValidatorFor(document).compile({ $ref: `openapi.json#/components/schemas/${name}` })

// JSON text of a value whose integers may be bigints, written with their exact digits.
const jsonText = (value: unknown): string => {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value).map(([key, member]) => `${JSON.stringify(key)}:${jsonText(member)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

const doubleExact = fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n })
const farBeyondInt64 = fc.oneof(fc.bigInt({ min: 2n ** 64n, max: 2n ** 100n }), fc.bigInt({ min: -(2n ** 100n), max: -(2n ** 64n) }))
const fraction = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x))
const otherJson = fc.oneof(fc.string({ maxLength: 5 }), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}), fc.constant([1]))

const idValue = fc.oneof(doubleExact, farBeyondInt64, fraction, otherJson)
const textValue = fc.oneof(wellFormedText, textWithLoneSurrogate, doubleExact, otherJson)
const statusValue = fc.oneof(fc.constantFrom(...ERROR_STATUS_LIST), fc.integer({ min: 100, max: 599 }), fraction, otherJson)
const undeclared = fc.record({ colour: otherJson }, { requiredKeys: [] })

const objectOf = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.tuple(fc.record(fields, { requiredKeys: [] }), undeclared).map(([declared, other]) => ({ ...declared, ...other }))

const bodies = (fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<string> =>
  fc.oneof({ weight: 5, arbitrary: objectOf(fields) }, { weight: 1, arbitrary: otherJson }).map(jsonText)

const read = (text: string): { exact: unknown; asDoubles: unknown } => {
  const exact = parseExactJson(new TextEncoder().encode(text))
  if (E.isLeft(exact)) expect.fail(`the test wrote JSON the reader refuses: ${text}`)
  return { exact: exact.right, asDoubles: JSON.parse(text) }
}

// Whether a body holds no field but those the codec declares.
const onlyDeclared = (codec: t.Mixed, body: unknown): boolean => {
  const declared = new Set(declaredFields(codec).map(({ name }) => name))
  return typeof body === 'object' && body !== null && Object.keys(body).every((key) => declared.has(key))
}

describe("the document's schemas, derived from the codecs", function () {
  it('NewPlant: a body is valid by the schema exactly when the service reads it as a NewPlant', function () {
    const schema = validator('NewPlant')
    fc.assert(
      fc.property(bodies({ id: idValue, name: textValue, tag: textValue }), (text) => {
        const { exact, asDoubles } = read(text)
        expect(schema(asDoubles), text).to.equal(E.isRight(decodeNewPlant(exact)))
      }),
      { numRuns: propertyRuns(1000) },
    )
  })

  it('Plant: an answer is valid by the schema exactly when the codec takes it and it holds no field the codec does not declare', function () {
    const schema = validator('Plant')
    fc.assert(
      fc.property(bodies({ id: idValue, name: textValue, tag: textValue }), (text) => {
        const { asDoubles } = read(text)
        expect(schema(asDoubles), text).to.equal(E.isRight(CREATE_PLANT.answer.decode(asDoubles)) && onlyDeclared(CREATE_PLANT.answer, asDoubles))
      }),
      { numRuns: propertyRuns(500) },
    )
  })

  it('Error: an answer is valid by the schema exactly when the codec takes it and it holds no field the codec does not declare', function () {
    const schema = validator('Error')
    fc.assert(
      fc.property(bodies({ error: statusValue, message: textValue }), (text) => {
        const { asDoubles } = read(text)
        expect(schema(asDoubles), text).to.equal(E.isRight(ErrorDocumentCodec.decode(asDoubles)) && onlyDeclared(ErrorDocumentCodec, asDoubles))
      }),
      { numRuns: propertyRuns(500) },
    )
  })

  it('follows a field added to a codec: in the schema, required as the codec requires it', function () {
    const Grown = t.exact(t.intersection([t.type({ id: Int64, name: WellFormedString }), t.partial({ tag: WellFormedString, note: t.string })]))
    const schema = schemaOfCodec(Grown, 'read', {
      description: 'A grown NewPlant.',
      fields: { id: { description: 'id' }, name: { description: 'name' }, tag: { description: 'tag' }, note: { description: 'note' } },
    })
    expect(schema.required).to.deep.equal(['id', 'name'])
    expect(Object.keys(schema.properties ?? {})).to.deep.equal(['id', 'name', 'tag', 'note'])
    expect(schema.properties?.['note']).to.deep.equal({ type: 'string', description: 'note' })
  })

  it('refuses, when the document is built, a field read with a codec it has no JSON Schema for', function () {
    const Refined = t.exact(t.type({ name: t.number }), 'Refined')
    expect(() => schemaOfCodec(Refined, 'read', { description: 'x', fields: { name: { description: 'name' } } })).to.throw(
      TypeError,
      'Refined.name is read with number',
    )
  })

  it("has the client write each field the codec declares, in the codec's order", function () {
    const plant = { tag: 'aroid', name: 'Monstera', id: 7n } as NewPlant
    expect(newPlantJsonText(plant)).to.equal('{"id":7,"name":"Monstera","tag":"aroid"}')
  })
})

// The fields an embedder builds a NewPlant from are the codec's, each required as the codec
// requires it: this does not compile when the two part.
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T]
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type CodecFields = t.OutputOf<typeof CREATE_PLANT.request.codec>
export const fieldsFollowTheCodec: readonly [Same<keyof NewPlantFields, keyof CodecFields>, Same<RequiredKeys<NewPlantFields>, RequiredKeys<CodecFields>>] = [
  true,
  true,
]
