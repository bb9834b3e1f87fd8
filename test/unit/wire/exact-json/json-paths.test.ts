import { expect } from 'chai'
import fc from 'fast-check'
import { parseExactJson, type JsonLimits } from '../../../../wire/exact-json/index.js'
import { propertyRuns } from '../../../support/property-runs.js'

// parseExactJson reads a text on one of two paths: JSON.parse followed by a walk that replaces each
// number by the exact value of its lexeme (the fast path), or lossless-json with the same number
// reader (for every text the fast path cannot vouch for). They must agree on every text: the same
// value, or the same refusal. The lossless path is forced by making JSON.parse refuse for the
// length of one call (lossless-json does not use it), so the same public function is compared
// with itself on its two paths.
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
const LIMITS: JsonLimits = { maxNumberLength: 100, maxDepth: 32 }

// How many texts JSON.parse read on the first call: the fast path's walk then ran on them.
let fastPathValues = 0
const onEitherPath = (text: string, limits: JsonLimits = LIMITS) => {
  const jsonParse = JSON.parse
  let fastPathRead = false
  JSON.parse = (...args: Parameters<typeof JSON.parse>): unknown => {
    const value: unknown = jsonParse(...args)
    fastPathRead = true
    return value
  }
  let fast: ReturnType<typeof parseExactJson>
  try {
    fast = parseExactJson(utf8(text), limits)
  } finally {
    JSON.parse = jsonParse
  }
  if (fastPathRead) fastPathValues++
  JSON.parse = () => {
    throw new SyntaxError('the fast path is closed for this call')
  }
  let lossless: ReturnType<typeof parseExactJson>
  try {
    lossless = parseExactJson(utf8(text), limits)
  } finally {
    JSON.parse = jsonParse
  }
  return { fast, lossless }
}

const expectSameAnswer = (text: string, limits?: JsonLimits): void => {
  const { fast, lossless } = onEitherPath(text, limits)
  // deep-eql tells 1n from 1, NaN equals NaN, -0 differs from 0, and key order counts for nothing:
  // so keys are compared in order apart.
  expect(fast, text).to.deep.equal(lossless)
  if (fast._tag === 'Right' && lossless._tag === 'Right') expect(keyOrder(fast.right), text).to.deep.equal(keyOrder(lossless.right))
}

const keyOrder = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(keyOrder)
    : typeof value === 'object' && value !== null
      ? Object.entries(value).map(([key, member]) => [key, keyOrder(member)])
      : typeof value

const digits = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max, size: 'max' }).map((ds) => ds.join(''))

/** A JSON number lexeme: big integers, fractions, exponents, signs, zeros in every place. */
const numberLexeme: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', '-'),
    fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 10n ** 31n }).map(String), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 30)).map(([a, b]) => a + b)),
    fc.option(digits(1, 25), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 4)), { nil: undefined }),
  )
  .map(([sign, int, frac, exp]) => `${sign}${int}${frac === undefined ? '' : `.${frac}`}${exp === undefined ? '' : exp.join('')}`)

const interestingNumber = fc.oneof(
  numberLexeme,
  fc.constantFrom(
    '9007199254740993',
    '-9007199254740993',
    '9223372036854775807',
    '-9223372036854775808',
    '9223372036854775808',
    '18446744073709551616',
    '1.0000000000000000001',
    '1e400',
    '-1e-400',
    '0.1e1',
    '1E+2',
    '-0',
    '-0.0e-0',
  ),
)

// Keys from a small pool, so objects often repeat a key (with the same or another value), or use
// one the fast path declines (an array index, `__proto__`).
const key = fc.oneof(fc.constantFrom('a', 'b', 'id', '0', '7', '__proto__', 'constructor', 'é', '\\u0041', 'x\\"y'), fc.string({ maxLength: 4 }).map((s) => JSON.stringify(s).slice(1, -1)))
const space = fc.constantFrom('', ' ', '\n', '\t ', '\r\n')

const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    interestingNumber,
    fc.constantFrom('true', 'false', 'null', '""', '"\\ud800"', '"\\u0000"'),
    fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(key, space, tie('value')), { maxLength: 4 })
      .map((members) => `{${members.map(([k, s, v]) => `"${k}"${s}:${s}${v}`).join(',')}}`),
  ),
})).value

const mangled: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(jsonText, fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))),
  fc.tuple(jsonText, fc.constantFrom('x', ',', ']', '}', ' 1', '"', '\\')).map(([text, tail]) => `${text}${tail}`),
  fc.tuple(jsonText, numberLexeme).map(([text, number]) => `[${text},${number}`),
)

describe('the two JSON reading paths give the same answer', function () {
  it('on any JSON text: big integers, fractions, exponents, nesting, repeated keys', function () {
    fastPathValues = 0
    fc.assert(fc.property(jsonText, (text) => expectSameAnswer(text)), { numRuns: propertyRuns(3000) })
    // The comparison means something only if the fast path answered most of those texts itself.
    expect(fastPathValues).to.be.greaterThan(1500)
  })

  it('on a text cut short, followed by garbage, or left open', function () {
    fc.assert(fc.property(mangled, (text) => expectSameAnswer(text)), { numRuns: propertyRuns(2000) })
  })

  it('on a text at or beyond the number length and nesting limits', function () {
    fc.assert(
      fc.property(jsonText, fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 6 }), (text, maxNumberLength, maxDepth) =>
        expectSameAnswer(text, { maxNumberLength, maxDepth }),
      ),
      { numRuns: propertyRuns(1000) },
    )
  })

  for (const text of [
    '{"id":9007199254740993,"name":"Monstera","tag":"aroid"}',
    '[1.0,1e2,-0,0.5,123456789012345678901234567890,1.0000000000000000001]',
    '{"a":1,"a":1}',
    '{"a":1,"a":2}',
    '{"b":1,"0":2}',
    '{"__proto__":{"x":1}}',
    '[[[[{"a":[{"b":-9223372036854775808}]}]]]]',
  ]) {
    it(`on ${text}`, function () {
      expectSameAnswer(text)
    })
  }
})
