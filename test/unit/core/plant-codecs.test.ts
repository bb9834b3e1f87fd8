import { expect } from 'chai'
import fc from 'fast-check'
import { parseExactJson } from '../../../adapters/http/index.js'
import {
  decodeNewPlant,
  INT64_MAX,
  INT64_MIN,
  NewPlant,
  Plant,
  toPlant,
  type Violation,
} from '../../../core/index.js'
import {
  beyondInt64,
  int64,
  markedValue,
  newPlantInput,
  SUBMITTED_MARKER,
  textWithLoneSurrogate,
  wellFormedText,
} from '../../support/arbitraries.js'
import { expectLeftTag, expectRight } from '../../support/either.js'
import { plant } from '../../support/plants.js'
import { propertyRuns } from '../../support/property-runs.js'

const INT64_EXPECTED = 'an integer from -9223372036854775808 to 9223372036854775807'
const BIGINT_EXPECTED =
  'an integer from -9223372036854775808 to 9223372036854775807 as a bigint, not a JS number (above 2^53 a number may already be rounded)'
const STRING_EXPECTED = 'a string'
const WELL_FORMED_EXPECTED = 'a string of well-formed Unicode (no lone surrogate)'

const violationsOf = (input: unknown): ReadonlyArray<Violation> =>
  expectLeftTag(decodeNewPlant(input), 'InvalidInput').violations

const fromText = (text: string): unknown => expectRight(parseExactJson(new TextEncoder().encode(text)))

type Field = 'id' | 'name' | 'tag'
interface Corruption {
  readonly field: Field
  readonly value: unknown
  readonly absent: boolean
}

const replaceWith = (field: Field, values: fc.Arbitrary<unknown>): fc.Arbitrary<Corruption> =>
  values.map((value) => ({ field, value, absent: false }))
const leaveOut = (field: Field): fc.Arbitrary<Corruption> => fc.constant({ field, value: undefined, absent: true })

// A number is refused as an id on purpose: by the time an id is a JS number it may already have
// been rounded (9007199254740993 reads as 9007199254740992), and accepting it would store the
// wrong plant. Ids reach the core as bigints from the exact JSON reader.
const notAnInt64 = fc.oneof(
  beyondInt64,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, 1, -1, 2 ** 53, 2 ** 53 + 2, Number.NaN, Number.POSITIVE_INFINITY),
  fc.anything().filter((value) => typeof value !== 'bigint'),
  markedValue,
)

const notAString = fc.anything().filter((value) => typeof value !== 'string' && value !== undefined)

// Marked values that are not valid names or tags: marked well-formed text would be accepted.
const markedButInvalidText = markedValue.filter((value) => typeof value !== 'string' || !value.isWellFormed())

const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  replaceWith('id', notAnInt64),
  leaveOut('id'),
  replaceWith('name', fc.oneof(notAString, textWithLoneSurrogate, markedButInvalidText)),
  leaveOut('name'),
  replaceWith(
    'tag',
    fc.oneof(
      fc.constant(null),
      fc.double(),
      fc.object(),
      fc.array(wellFormedText),
      notAString,
      textWithLoneSurrogate,
      markedButInvalidText,
    ),
  ),
)

const corrupted = (input: Record<string, unknown>, { field, value, absent }: Corruption): Record<string, unknown> => {
  const others = Object.fromEntries(Object.entries(input).filter(([key]) => key !== field))
  return absent ? others : { ...others, [field]: value }
}

const expectedFor: Record<Field, ReadonlyArray<string>> = {
  id: [INT64_EXPECTED, BIGINT_EXPECTED],
  name: [STRING_EXPECTED, WELL_FORMED_EXPECTED],
  tag: [STRING_EXPECTED, WELL_FORMED_EXPECTED],
}

describe('NewPlant codec', function () {
  describe('ids', function () {
    it('keeps every int64 exactly', function () {
      fc.assert(
        fc.property(int64, (id) => {
          expect(expectRight(NewPlant.decode({ id, name: 'x' })).id).to.equal(id)
        }),
        { numRuns: propertyRuns(300) },
      )
    })

    it('keeps every int64 exactly through JSON text', function () {
      fc.assert(
        fc.property(int64, (id) => {
          expect(expectRight(NewPlant.decode(fromText(`{"id":${id},"name":"x"}`))).id).to.equal(id)
        }),
        { numRuns: propertyRuns(300) },
      )
    })

    for (const [label, id] of [
      ['2^53 + 1', 2n ** 53n + 1n],
      ['2^53', 2n ** 53n],
      ['-2^63', INT64_MIN],
      ['2^63 - 1', INT64_MAX],
      ['0', 0n],
    ] as const) {
      it(`keeps ${label} exactly through JSON text`, function () {
        const decoded = expectRight(NewPlant.decode(fromText(`{"id":${id},"name":"x"}`)))
        expect(decoded).to.deep.equal({ id, name: 'x' })
        expect(typeof decoded.id).to.equal('bigint')
      })
    }

    it('tells 2^53 and 2^53 + 1 apart through JSON text', function () {
      const even = expectRight(NewPlant.decode(fromText('{"id":9007199254740992,"name":"x"}'))).id
      const odd = expectRight(NewPlant.decode(fromText('{"id":9007199254740993,"name":"x"}'))).id
      expect(odd - even).to.equal(1n)
    })

    it('refuses 2^63 and -2^63 - 1, naming id', function () {
      for (const id of [INT64_MAX + 1n, INT64_MIN - 1n]) {
        expect(violationsOf({ id, name: 'x' })).to.deep.equal([{ path: 'id', expected: INT64_EXPECTED }])
        expect(violationsOf(fromText(`{"id":${id},"name":"x"}`))).to.deep.equal([{ path: 'id', expected: INT64_EXPECTED }])
      }
    })

    it('refuses any integer outside int64, naming id', function () {
      fc.assert(
        fc.property(beyondInt64, (id) => {
          expect(violationsOf({ id, name: 'x' })).to.deep.equal([{ path: 'id', expected: INT64_EXPECTED }])
        }),
      )
    })

    // A JS number may already have been rounded before the codec sees it (2 ** 53 + 1 evaluates
    // to 2 ** 53), so even an integral, safe number is refused: only a bigint is known exact.
    it('refuses integral JS numbers as ids, saying that the id must be a bigint', function () {
      fc.assert(
        fc.property(fc.oneof(fc.integer(), fc.constantFrom(0, -0, 42, 2 ** 53 + 1, 2 ** 64, -(2 ** 63), Number.MAX_VALUE)), (id) => {
          expect(violationsOf({ id, name: 'x' })).to.deep.equal([{ path: 'id', expected: BIGINT_EXPECTED }])
        }),
      )
    })

    it('refuses other JS numbers as ids as not being an int64', function () {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.double().filter((id) => !Number.isInteger(id)),
            fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
          ),
          (id) => {
            expect(violationsOf({ id, name: 'x' })).to.deep.equal([{ path: 'id', expected: INT64_EXPECTED }])
          },
        ),
      )
    })

    it('refuses a number that is not an integer in JSON text', function () {
      for (const id of ['1.5', '1e-1', '1e999999999']) {
        expect(violationsOf(fromText(`{"id":${id},"name":"x"}`))).to.deep.equal([{ path: 'id', expected: INT64_EXPECTED }])
      }
      // These reach the codec as NaN, not as the integral double they round to: the message is the
      // rule, without the hint for embedders that passed a JS number.
      for (const id of ['1.0000000000000000001', '9007199254740993.5']) {
        expect(violationsOf(fromText(`{"id":${id},"name":"x"}`))).to.deep.equal([{ path: 'id', expected: INT64_EXPECTED }])
      }
    })
  })

  describe('invalid input', function () {
    it('refuses every corrupted field, naming it and never repeating the submitted value', function () {
      fc.assert(
        fc.property(newPlantInput, corruption, (input, damage) => {
          const violations = violationsOf(corrupted(input, damage))
          expect(violations.map((v) => v.path)).to.deep.equal([damage.field])
          expect(expectedFor[damage.field]).to.include(violations[0]?.expected)
          expect(JSON.stringify(violations)).not.to.include(SUBMITTED_MARKER)
        }),
        { numRuns: propertyRuns(400) },
      )
    })

    it('names every wrong field at once', function () {
      expect(violationsOf({ name: 7, tag: null })).to.deep.equal([
        { path: 'id', expected: INT64_EXPECTED, missing: true },
        { path: 'name', expected: STRING_EXPECTED },
        { path: 'tag', expected: STRING_EXPECTED },
      ])
    })

    it('refuses a lone surrogate in name or tag as not well-formed', function () {
      expect(violationsOf({ id: 1n, name: 'a\uD800' })).to.deep.equal([{ path: 'name', expected: WELL_FORMED_EXPECTED }])
      expect(violationsOf({ id: 1n, name: 'a', tag: '\uDFFFb' })).to.deep.equal([
        { path: 'tag', expected: WELL_FORMED_EXPECTED },
      ])
    })

    for (const [label, input] of [
      ['null', null],
      ['an array', [{ id: 1n, name: 'x' }]],
      ['a string', '{"id":1,"name":"x"}'],
      ['a number', 1],
      ['a bigint', 1n],
      ['undefined', undefined],
    ] as const) {
      it(`refuses ${label} as a whole, with the empty path`, function () {
        expect(violationsOf(input)).to.deep.equal([{ path: '', expected: 'a JSON object' }])
      })
    }

    it('refuses an object it cannot read (a revoked Proxy, a throwing getter) as a value, never throwing', function () {
      const { proxy, revoke } = Proxy.revocable({ id: 1n, name: 'x' }, {})
      revoke()
      const throwing = Object.defineProperty({ id: 1n }, 'name', {
        enumerable: true,
        get: () => {
          throw new Error('getter')
        },
      })
      for (const input of [proxy, throwing]) {
        expect(violationsOf(input)).to.deep.equal([{ path: '', expected: 'an object whose fields can be read' }])
      }
    })

    it('does not accept fields inherited from a prototype as the plant', async function () {
      const decoded = NewPlant.decode(Object.create({ id: 1n, name: 'x' }) as unknown)
      if (decoded._tag === 'Right') {
        expect({ ...decoded.right }).to.deep.equal({ id: 1n, name: 'x' })
      }
    })
  })

  describe('valid input', function () {
    it('decodes a valid input to exactly its declared fields', function () {
      fc.assert(
        fc.property(newPlantInput, (input) => {
          const decoded = expectRight(NewPlant.decode(input))
          expect(decoded).to.deep.equal(input)
          expect(Object.keys(decoded).sort()).to.deep.equal(Object.keys(input).sort())
        }),
      )
    })

    it('drops undeclared fields', function () {
      const undeclared = fc.dictionary(
        fc.string().filter((key) => !['id', 'name', 'tag'].includes(key)),
        fc.anything(),
        { minKeys: 1 },
      )
      fc.assert(
        fc.property(newPlantInput, undeclared, (input, extra) => {
          const decoded = expectRight(NewPlant.decode({ ...extra, ...input }))
          expect(Object.keys(decoded).sort()).to.deep.equal(Object.keys(input).sort())
          expect(decoded).to.deep.equal(input)
        }),
      )
    })

    it('drops undeclared fields read from JSON text, __proto__ and constructor included', function () {
      const decoded = expectRight(
        NewPlant.decode(fromText('{"id":5,"name":"x","owner":"me","__proto__":{"tag":"t"},"constructor":1}')),
      )
      expect(Object.keys(decoded)).to.have.members(['id', 'name'])
      expect(decoded.tag).to.equal(undefined)
      expect(decoded).to.deep.equal({ id: 5n, name: 'x' })
    })

    it('keeps Unicode in name and tag exactly', function () {
      const texts = [
        'Ficus \u{1F331}',
        'e\u0301 (e + combining acute)',
        '\u05E2\u05E5 \u202Ertl\u202C',
        'nul\u0000inside',
        '\u{10FFFF}\u{E000}\uFEFF',
        '',
      ]
      for (const text of texts) {
        const body = `{"id":1,"name":${JSON.stringify(text)},"tag":${JSON.stringify(text)}}`
        expect(expectRight(NewPlant.decode(fromText(body)))).to.deep.equal({ id: 1n, name: text, tag: text })
      }
    })

    it('keeps any well-formed text exactly through JSON text', function () {
      fc.assert(
        fc.property(wellFormedText, wellFormedText, (name, tag) => {
          const body = `{"id":1,"name":${JSON.stringify(name)},"tag":${JSON.stringify(tag)}}`
          expect(expectRight(NewPlant.decode(fromText(body)))).to.deep.equal({ id: 1n, name, tag })
        }),
      )
    })

    it('refuses the JSON escape of a lone surrogate, which parses but names no character', function () {
      const parsed = fromText('{"id":1,"name":"\\ud800"}')
      expect(parsed).to.deep.equal({ id: 1n, name: '\uD800' })
      expect(violationsOf(parsed)).to.deep.equal([{ path: 'name', expected: WELL_FORMED_EXPECTED }])
    })
  })
})

describe('Plant codec and toPlant', function () {
  it('decodes exactly name and tag, dropping the id and anything else', function () {
    expect(expectRight(Plant.decode({ id: 1n, name: 'Fern', tag: 'leafy', extra: true }))).to.deep.equal({
      name: 'Fern',
      tag: 'leafy',
    })
    const untagged = expectRight(Plant.decode({ name: 'Fern', id: 1n }))
    expect(untagged).to.deep.equal({ name: 'Fern' })
    expect(Object.keys(untagged)).to.deep.equal(['name'])
  })

  it('refuses a Plant without a name, or with a tag that is not text', function () {
    expect(Plant.decode({ tag: 'x' })._tag).to.equal('Left')
    expect(Plant.decode({ name: 'x', tag: null })._tag).to.equal('Left')
    expect(Plant.decode({ name: '\uD800' })._tag).to.equal('Left')
  })

  it('shows a stored plant as exactly {name} or {name, tag}', function () {
    fc.assert(
      fc.property(newPlantInput, (input) => {
        const shown = toPlant(plant(input.id, input.name, input.tag))
        const expected = input.tag === undefined ? { name: input.name } : { name: input.name, tag: input.tag }
        expect(shown).to.deep.equal(expected)
        expect(Object.keys(shown)).to.deep.equal(Object.keys(expected))
        expect(expectRight(Plant.decode(shown))).to.deep.equal(expected)
      }),
    )
  })
})
