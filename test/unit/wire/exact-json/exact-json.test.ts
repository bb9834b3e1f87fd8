import { expect } from 'chai'
import fc from 'fast-check'
import { parseExactJson } from '../../../../wire/exact-json/exact-json.js'
import { decodeNewPlant } from '../../../../core/index.js'
import { int64, SUBMITTED_MARKER } from '../../../support/arbitraries.js'
import { expectLeftTag, expectRight } from '../../../support/either.js'
import { propertyRuns } from '../../../support/property-runs.js'

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
const parsed = (text: string): unknown => expectRight(parseExactJson(utf8(text)))

const refusal = (bytes: Uint8Array): string => {
  const result = parseExactJson(bytes)
  if (result._tag === 'Right') expect.fail(`expected the body to be refused, it parsed`)
  return result.left
}
const refusalOf = (text: string): string => refusal(utf8(text))

const NOT_UTF8 = 'the request body is not valid UTF-8'
const NOT_WELL_FORMED = /^the request body is not well-formed JSON( \(at character \d+\))?$/

/**
 * Checks that `exact` is what JSON.parse made of the same text (`plain`), except that every
 * integer-valued number is a bigint of that integer.
 */
const expectExactCounterpart = (exact: unknown, plain: unknown, path = '$'): void => {
  if (typeof plain === 'number') {
    if (Number.isInteger(plain) && typeof exact !== 'bigint') {
      // An integer beyond int64 (more than 20 digits) is a double, as JSON.parse reads it.
      expect(Math.abs(plain), `${path}: a double only beyond int64`).to.be.at.least(1e19)
      expect(exact, path).to.equal(plain)
    } else if (Number.isInteger(plain)) {
      // The text's integer and JSON.parse's double are the same number up to the double's rounding.
      expect(Number(exact), path).to.equal(plain)
      if (Number.isSafeInteger(plain)) expect(exact, path).to.equal(BigInt(plain))
    } else {
      expect(exact, path).to.equal(plain)
    }
  } else if (Array.isArray(plain)) {
    expect(exact, path).to.be.an('array').with.length(plain.length)
    plain.forEach((item: unknown, index) => expectExactCounterpart((exact as unknown[])[index], item, `${path}[${index}]`))
  } else if (typeof plain === 'object' && plain !== null) {
    expect(Object.getPrototypeOf(exact), path).to.equal(Object.prototype)
    const exactEntries = Object.entries(exact as object)
    const plainEntries = Object.entries(plain)
    expect(exactEntries.map(([key]) => key), path).to.deep.equal(plainEntries.map(([key]) => key))
    exactEntries.forEach(([key, value], index) =>
      expectExactCounterpart(value, plainEntries[index]?.[1], `${path}.${key}`),
    )
  } else {
    expect(exact, path).to.equal(plain)
  }
}

describe('parseExactJson', function () {
  describe('numbers', function () {
    it('keeps 9007199254740993 and 9007199254740992 as two distinct bigints', function () {
      expect(parsed('9007199254740993')).to.equal(9007199254740993n)
      expect(parsed('9007199254740992')).to.equal(9007199254740992n)
      expect(parsed('[9007199254740993,9007199254740992]')).to.deep.equal([9007199254740993n, 9007199254740992n])
    })

    for (const [text, value] of [
      ['1.0', 1n],
      ['1e2', 100n],
      ['1E+2', 100n],
      ['1.5e1', 15n],
      ['2.50e1', 25n],
      ['100e-2', 1n],
      ['0.00100e3', 1n],
      ['-0', 0n],
      ['-0.0e7', 0n],
      ['-9223372036854775808', -9223372036854775808n],
      ['9223372036854775807.000', 9223372036854775807n],
      ['12345678901234567890', 12345678901234567890n],
    ] as const) {
      it(`reads ${text} as the integer ${value}`, function () {
        expect(parsed(text)).to.equal(value)
      })
    }

    for (const [text, value] of [
      ['0.1', 0.1],
      ['1.5', 1.5],
      ['-2.5e-1', -0.25],
    ] as const) {
      it(`reads ${text} as a number that is not a bigint`, function () {
        const value_ = parsed(text)
        expect(typeof value_).to.equal('number')
        expect(value_).to.equal(value)
      })
    }

    for (const text of ['1.0000000000000000001', '9007199254740993.5', '-0.99999999999999999999']) {
      it(`reads ${text}, which no double holds without claiming an integer, as NaN`, function () {
        expect(Number.isNaN(parsed(text))).to.equal(true)
      })
    }

    it('does not take 1.0000000000000000001 for an integer, so it is refused as an id', function () {
      const body = parsed('{"id":1.0000000000000000001,"name":"x"}')
      const error = expectLeftTag(decodeNewPlant(body), 'InvalidInput')
      expect(error.violations.map((v) => v.path)).to.deep.equal(['id'])
    })

    it('reads 1e999999999 at once, as a number and not a bigint, and the id is refused', function () {
      // Expanding the exponent into a billion digits would take minutes, past the suite's time-out:
      // no bound on this machine's speed is needed to see it.
      expect(typeof parsed('1e999999999')).to.equal('number')
      const error = expectLeftTag(decodeNewPlant(parsed('{"id":1e999999999,"name":"x"}')), 'InvalidInput')
      expect(error.violations.map((v) => v.path)).to.deep.equal(['id'])
      expect(typeof parsed('-1e999999999')).to.equal('number')
      expect(typeof parsed('1e-999999999')).to.equal('number')
    })

    it('reads every way of writing one int64 as that same bigint', function () {
      fc.assert(
        fc.property(int64, fc.integer({ min: 1, max: 6 }), (id, zeros) => {
          const padding = '0'.repeat(zeros)
          expect(parsed(`${id}.${padding}`)).to.equal(id)
          // JSON allows no leading zero, so 0 cannot be padded on the left of an exponent.
          if (id !== 0n) expect(parsed(`${id}${padding}e-${zeros}`)).to.equal(id)
          expect(parsed(`${id}.${padding}E+0`)).to.equal(id)
          const scale = 10n ** BigInt(zeros)
          if (id % scale === 0n) expect(parsed(`${id / scale}e${zeros}`)).to.equal(id)
        }),
      )
    })

    it('reads an int64 with a fraction as a number, never as a bigint', function () {
      fc.assert(
        fc.property(int64, fc.integer({ min: 1, max: 9 }), (id, digit) => {
          expect(typeof parsed(`${id}.${digit}`)).to.equal('number')
          expect(typeof parsed(`${id}.0${digit}e1`)).to.equal('number')
        }),
      )
    })
  })

  describe('like JSON.parse', function () {
    it('reads any JSON text as JSON.parse does, integers within 20 digits as bigints', function () {
      fc.assert(
        fc.property(fc.oneof(fc.json(), fc.json({ stringUnit: 'binary' })), (text) => {
          expectExactCounterpart(parsed(text), JSON.parse(text))
        }),
        { numRuns: propertyRuns(300) },
      )
    })
  })

  describe('encoding', function () {
    it('reads a string as it reads its UTF-8 bytes, for any JSON text', function () {
      fc.assert(
        fc.property(fc.json(), (text) => {
          expect(parseExactJson(text)).to.deep.equal(parseExactJson(utf8(text)))
        }),
      )
      expect(parseExactJson('{"id": 9007199254740993}')).to.deep.equal({ _tag: 'Right', right: { id: 9007199254740993n } })
    })

    for (const [label, bytes] of [
      ['a lone 0xFF byte', [0xff]],
      ['an overlong encoding of "/" (C0 AF)', [0xc0, 0xaf]],
      ['an overlong three-byte encoding (E0 80 AF)', [0xe0, 0x80, 0xaf]],
      ['a UTF-8-encoded lone surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
      ['a code point above U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
      ['a lone continuation byte (80)', [0x80]],
      ['a truncated sequence (E2 82)', [0xe2, 0x82]],
    ] as const) {
      it(`refuses ${label}, inside a string or alone`, function () {
        expect(refusal(Uint8Array.from(bytes))).to.equal(NOT_UTF8)
        const body = [...utf8('{"id":1,"name":"a'), ...bytes, ...utf8('b"}')]
        expect(refusal(Uint8Array.from(body))).to.equal(NOT_UTF8)
      })
    }

    it('reads multi-byte UTF-8 exactly', function () {
      expect(parsed('"\u00e9\u20ac\u{1F331}\\u0000"')).to.equal('\u00e9\u20ac\u{1F331}\u0000')
    })

    it('parses the escape "\\ud800", a well-formed JSON text, and leaves the refusal to the codec', function () {
      const body = parsed('{"id":1,"name":"\\ud800"}')
      expect(body).to.deep.equal({ id: 1n, name: '\uD800' })
      const error = expectLeftTag(decodeNewPlant(body), 'InvalidInput')
      expect(error.violations.map((v) => v.path)).to.deep.equal(['name'])
    })
  })

  describe('malformed texts', function () {
    for (const text of ['', '   ', ' \t\r\n ', '\ufeff']) {
      it(`refuses ${JSON.stringify(text)} as an empty body`, function () {
        expect(refusalOf(text)).to.equal('the request body is empty')
      })
    }

    it('does not call a body empty when it holds anything but JSON whitespace', function () {
      for (const text of ['\u00a0', '\u2028', ' x ', '\u0000']) expect(refusalOf(text)).to.match(NOT_WELL_FORMED)
    })

    for (const text of [
      `{"name":"${SUBMITTED_MARKER}"`,
      `{"name":${SUBMITTED_MARKER}}`,
      `{'name':'${SUBMITTED_MARKER}'}`,
      `{"name":"${SUBMITTED_MARKER}",}`,
      `[${SUBMITTED_MARKER}]`,
      `{"id":01,"name":"${SUBMITTED_MARKER}"}`,
      `{"id":+1,"name":"${SUBMITTED_MARKER}"}`,
      `{"id":.5,"name":"${SUBMITTED_MARKER}"}`,
      `{"id":1.,"name":"${SUBMITTED_MARKER}"}`,
      `{"id":NaN,"name":"${SUBMITTED_MARKER}"}`,
      `{"name":"${SUBMITTED_MARKER}\u0001"}`,
      `{"name":"${SUBMITTED_MARKER}"} {"name":"again"}`,
      `{"name":"${SUBMITTED_MARKER}"} trailing`,
    ]) {
      it(`refuses ${JSON.stringify(text)} without repeating the body`, function () {
        const message = refusalOf(text)
        expect(message).to.match(NOT_WELL_FORMED)
        expect(message).not.to.include(SUBMITTED_MARKER)
      })
    }

    it('refuses any JSON text followed by garbage, or cut short, without repeating it', function () {
      const markedObject = fc
        .tuple(fc.json(), fc.nat())
        .map(([inner, cut]) => ({ text: `{"${SUBMITTED_MARKER}":${inner}}`, cut }))
      fc.assert(
        fc.property(markedObject, ({ text, cut }) => {
          const prefix = text.slice(0, cut % text.length)
          for (const malformed of [`${text} ${SUBMITTED_MARKER}`, prefix]) {
            const message = refusalOf(malformed)
            expect(message).to.match(malformed === '' ? /^the request body is empty$/ : NOT_WELL_FORMED)
            expect(message).not.to.include(SUBMITTED_MARKER)
          }
        }),
        { numRuns: propertyRuns(200) },
      )
    })
  })

  describe('integers beyond int64', function () {
    it('keeps them as doubles rather than expanding them: no field needs their exact value', function () {
      expect(parsed('{"a":1e398,"b":123456789012345678901,"c":-1e25}')).to.deep.equal({ a: 1e398, b: 123456789012345678901, c: -1e25 })
      expect(parsed('{"max":9223372036854775807,"min":-9223372036854775808,"e":9.223372036854775807e18}')).to.deep.equal({
        max: 9223372036854775807n,
        min: -9223372036854775808n,
        e: 9223372036854775807n,
      })
    })
  })

  describe('duplicate keys', function () {
    it('refuses a key repeated with another value, naming the key', function () {
      expect(refusalOf('{"id":1,"id":2}')).to.equal('the request body repeats the key "id"; each key may appear once')
      expect(refusalOf('{"id":1,"name":"a","name":"b"}')).to.include('"name"')
      expect(refusalOf('{"outer":{"tag":null,"tag":false}}')).to.include('"tag"')
    })

    it('refuses 9007199254740993 and 9007199254740992 under one key: they are different ids', function () {
      expect(refusalOf('{"id":9007199254740993,"id":9007199254740992}')).to.include('"id"')
    })

    it('refuses a key repeated with the same value too: no value is kept by guessing', function () {
      for (const text of ['{"id":1,"id":1,"name":"x"}', '{"id":1,"id":1.0}', '{"x":{"a":1,"a":1}}', '[{"a":"s","a":"s"}]']) {
        expect(refusalOf(text), text).to.equal('the request body repeats a key within one object; each key may appear once')
      }
    })

    it('tells values apart that equality on doubles would merge, and refuses each repetition', function () {
      // 1e400 and 2e400 are both Infinity as doubles; 1.0000000000000000001 is NaN (not an integer).
      for (const text of ['{"a":1e400,"a":2e400}', '{"a":1.0000000000000000001,"a":1.0000000000000000001}', '{"a":{},"a":[]}']) {
        expect(refusalOf(text), text).to.match(/^the request body repeats (a key|the key "a")/)
      }
    })

    it('quotes no more of a long key than a person needs to find it', function () {
      const key = `${'k'.repeat(40)}${SUBMITTED_MARKER}`
      const message = refusalOf(`{"${key}":1,"${key}":2}`)
      expect(message).to.include('k'.repeat(40))
      expect(message).not.to.include(SUBMITTED_MARKER)
    })

    it('names a repeated key even when it holds a line break', async function () {
      expect(refusalOf('{"a\\nb":1,"a\\nb":2}')).to.include('repeats the key')
    })
  })

  describe('__proto__', function () {
    it('keeps a "__proto__" key as an own property and leaves the prototype alone', function () {
      const body = parsed('{"__proto__":{"id":1,"polluted":true},"name":"x"}') as Record<string, unknown>
      expect(Object.getPrototypeOf(body)).to.equal(Object.prototype)
      expect(body.id).to.equal(undefined)
      expect(Object.keys(body)).to.deep.equal(['__proto__', 'name'])
      expect(Object.getOwnPropertyDescriptor(body, '__proto__')?.value).to.deep.equal({ id: 1n, polluted: true })
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined)
      const error = expectLeftTag(decodeNewPlant(body), 'InvalidInput')
      expect(error.violations.map((v) => v.path)).to.deep.equal(['id'])
    })
  })
})
