import { expect } from 'chai'
import fc from 'fast-check'
import { scanJson } from '../../../../wire/exact-json/exact-json.js'

const WIDE = { maxNumberLength: 10_000, maxDepth: 10_000 }

/** The lexemes of a scan's numbers, in text order, and whether each was marked digits only. */
const numbersOf = (text: string): ReadonlyArray<readonly [string, boolean]> => {
  const { numbers } = scanJson(text, WIDE)
  const found: Array<readonly [string, boolean]> = []
  for (let i = 0; i < numbers.length; i += 2) {
    const start = numbers[i] ?? 0
    const end = numbers[i + 1] ?? 0
    found.push(start < 0 ? [text.slice(-start - 1, end), true] : [text.slice(start, end), false])
  }
  return found
}

// What a JSON value is, computed from the value rather than its text: its nesting, its numbers'
// lexemes and its objects' sizes in the order their `{` is written.
const depthOf = (value: unknown): number =>
  typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0

const numbersIn = (value: unknown): ReadonlyArray<string> =>
  typeof value === 'number'
    ? [JSON.stringify(value)]
    : typeof value === 'object' && value !== null
      ? Object.values(value).flatMap(numbersIn)
      : []

const memberCountsIn = (value: unknown): ReadonlyArray<number> =>
  typeof value === 'object' && value !== null
    ? [...(Array.isArray(value) ? [] : [Object.keys(value).length]), ...Object.values(value).flatMap(memberCountsIn)]
    : []

describe('scanJson, the bounds scanner', function () {
  describe('nesting', function () {
    it('counts {} as 1 and {"a":[]} as 2, and accepts a text exactly at the limit', function () {
      expect(scanJson('{}', { ...WIDE, maxDepth: 1 }).excess).to.equal(undefined)
      expect(scanJson('{"a":[]}', { ...WIDE, maxDepth: 2 }).excess).to.equal(undefined)
      expect(scanJson('{"a":[]}', { ...WIDE, maxDepth: 1 }).excess).to.equal('depth')
    })

    it('counts the deepest point, not the number of brackets', function () {
      expect(scanJson('[[],[],[],{},{"a":{}}]', { ...WIDE, maxDepth: 3 }).excess).to.equal(undefined)
      expect(scanJson('[[],[],[],{},{"a":{"b":[]}}]', { ...WIDE, maxDepth: 3 }).excess).to.equal('depth')
    })

    it('refuses a text that only opens, at the first bracket beyond the limit', function () {
      expect(scanJson('['.repeat(33), { ...WIDE, maxDepth: 32 }).excess).to.equal('depth')
      expect(scanJson('['.repeat(32), { ...WIDE, maxDepth: 32 }).excess).to.equal(undefined)
    })

    it('does not count brackets inside strings, escaped quotes and backslashes included', function () {
      for (const text of ['"[[[[{{{{"', '["\\"[[[["]', '{"[[":"]]{{"}', '["\\\\","[[[["]', '["\\u005b[[["]']) {
        expect(scanJson(text, { ...WIDE, maxDepth: 1 }).excess, text).to.equal(undefined)
      }
    })

    it('counts the brackets after a string that ends in an escaped backslash', function () {
      expect(scanJson('["\\\\",[[]]]', { ...WIDE, maxDepth: 2 }).excess).to.equal('depth')
    })

    it('finds the depth of any JSON value, and refuses it exactly when it is deeper than the limit', function () {
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 1, max: 9 }), (value, maxDepth) => {
          const excess = scanJson(JSON.stringify(value), { ...WIDE, maxDepth }).excess
          expect(excess).to.equal(depthOf(value) > maxDepth ? 'depth' : undefined)
        }),
      )
    })
  })

  describe('number length', function () {
    it('accepts a number exactly at the limit and refuses one character more', function () {
      expect(scanJson('12345', { ...WIDE, maxNumberLength: 5 }).excess).to.equal(undefined)
      expect(scanJson('123456', { ...WIDE, maxNumberLength: 5 }).excess).to.equal('number')
    })

    it('counts the sign, the point and the exponent', function () {
      expect(scanJson('[-1.5e+7]', { ...WIDE, maxNumberLength: 7 }).excess).to.equal(undefined)
      expect(scanJson('[-1.5e+70]', { ...WIDE, maxNumberLength: 7 }).excess).to.equal('number')
    })

    it('measures each number apart, not the digits of the whole text', function () {
      expect(scanJson('[123,456,789,12]', { ...WIDE, maxNumberLength: 3 }).excess).to.equal(undefined)
    })

    it('does not count digits inside strings or keys', function () {
      expect(scanJson('{"12345678":"12345678","\\"1234":1}', { ...WIDE, maxNumberLength: 2 }).excess).to.equal(undefined)
    })

    it('does not take the e of true and false for a number', function () {
      expect(numbersOf('[true,false,null]')).to.deep.equal([])
    })

    it('refuses any number longer than the limit, wherever it stands', function () {
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 1, max: 25 }), (value, maxNumberLength) => {
          const longest = Math.max(0, ...numbersIn(value).map((lexeme) => lexeme.length))
          const { excess } = scanJson(JSON.stringify(value), { maxDepth: 10_000, maxNumberLength })
          expect(excess).to.equal(longest > maxNumberLength ? 'number' : undefined)
        }),
      )
    })
  })

  describe('what it tells the parser', function () {
    it('locates each number and marks the ones of digits only', function () {
      expect(numbersOf('[12,-3,4.5,6e1,-0,7E-2]')).to.deep.equal([
        ['12', true],
        ['-3', true],
        ['4.5', false],
        ['6e1', false],
        ['-0', true],
        ['7E-2', false],
      ])
    })

    it('locates a number that ends the text', function () {
      expect(numbersOf('42')).to.deep.equal([['42', true]])
      expect(numbersOf(' -1.25')).to.deep.equal([['-1.25', false]])
    })

    it('counts the members of each object in the order its { appears, not counting colons in strings', function () {
      expect(scanJson('{"a:b":{"c":1,"d":{}},"e":[{"f":":"}]}', WIDE).memberCounts).to.deep.equal([2, 2, 0, 1])
    })

    it('finds every number and every object of any JSON value', function () {
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
          const text = JSON.stringify(value, null, 1)
          expect(numbersOf(text).map(([lexeme]) => lexeme)).to.deep.equal(numbersIn(value))
          expect(scanJson(text, WIDE).memberCounts).to.deep.equal(memberCountsIn(value))
        }),
      )
    })
  })

  describe('edge cases', function () {
    it('finds nothing in an empty text', function () {
      expect(scanJson('', WIDE)).to.deep.equal({ excess: undefined, numbers: [], memberCounts: [] })
    })

    it('ends a text cut inside a string without a finding, however it ends', function () {
      for (const text of ['"', '"\\', '["abc', '{"a":"\\"']) {
        expect(scanJson(text, { maxDepth: 1, maxNumberLength: 1 }).excess, text).to.equal(undefined)
      }
    })

    it('scans a text that closes more than it opens without throwing', function () {
      // A malformed text: the parser refuses it whatever the scan answers, but the scan may not crash.
      expect(() => scanJson(']]]][[', { ...WIDE, maxDepth: 1 })).not.to.throw()
    })

    it('reads a surrogate pair or any code unit in a string as string content', function () {
      fc.assert(
        fc.property(fc.string({ unit: 'binary' }), (s) => {
          expect(scanJson(JSON.stringify([s]), { maxDepth: 1, maxNumberLength: 1 })).to.deep.equal({
            excess: undefined,
            numbers: [],
            memberCounts: [],
          })
        }),
      )
    })
  })
})
