import { expect } from 'chai'
import fc from 'fast-check'
import { DEFAULT_JSON_LIMITS, parseExactJson } from '../../../../wire/exact-json/index.js'
import { BODY_LIMIT, cpuMillisecondsOf, hostileJson, longestZeroRun } from '../../../support/hostile-json.js'
import { propertyRuns } from '../../../support/property-runs.js'

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

// A well-formed 64 KiB body parses in a few milliseconds; the bound leaves room for a busy
// 2-core machine and a collection pause, and is still a small fraction of what the quadratic
// number reader cost (3.6 s for one body).
const CPU_BOUND_MS = 250

describe('reading JSON costs a bounded amount of CPU per byte', function () {
  this.timeout(60_000)

  it('parses or refuses every pathological text within the body limit within the CPU bound', async function () {
    await fc.assert(
      fc.asyncProperty(hostileJson, async (text) => {
        expect(Buffer.byteLength(text)).to.be.at.most(BODY_LIMIT)
        const ms = await cpuMillisecondsOf(() => parseExactJson(utf8(text)))
        expect(ms, `CPU ms for a ${text.length}-character text starting ${JSON.stringify(text.slice(0, 30))}`).to.be.below(
          CPU_BOUND_MS,
        )
      }),
      { numRuns: propertyRuns(100) },
    )
  })

  for (const [label, text, refusal] of [
    ['1.000…0001 with 65,500 zeros', longestZeroRun, 'the request body holds a number longer than 100 characters'],
    ['the same number in an ignored field', `{"id":1,"name":"x","pad":${longestZeroRun}}`, 'the request body holds a number longer than 100 characters'],
    ['an exponent of 65,000 digits', `1e${'0'.repeat(65_000)}1`, 'the request body holds a number longer than 100 characters'],
    ['32,000 nested arrays', `${'['.repeat(32_000)}${']'.repeat(32_000)}`, 'the request body is nested deeper than 32 levels'],
    ['10,000 nested objects', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, 'the request body is nested deeper than 32 levels'],
  ] as const) {
    it(`refuses ${label} with 400's reason, within the CPU bound`, async function () {
      let result: ReturnType<typeof parseExactJson> | undefined
      const ms = await cpuMillisecondsOf(() => (result = parseExactJson(utf8(text))))
      expect(result).to.deep.equal({ _tag: 'Left', left: refusal })
      expect(ms, 'CPU ms').to.be.below(CPU_BOUND_MS)
    })
  }

  it('accepts numbers and nesting up to the limits, exactly', function () {
    const { maxNumberLength, maxDepth } = DEFAULT_JSON_LIMITS
    const longest = `1${'0'.repeat(maxNumberLength - 1)}`
    // A 100-digit integer is far beyond int64: read as JSON.parse reads it, not expanded.
    expect(parseExactJson(utf8(longest))).to.deep.equal({ _tag: 'Right', right: 10 ** (maxNumberLength - 1) })
    expect(parseExactJson(utf8(`-${'9'.repeat(18)}`))).to.deep.equal({ _tag: 'Right', right: -(10n ** 18n - 1n) })
    expect(parseExactJson(utf8(`${'['.repeat(maxDepth)}${']'.repeat(maxDepth)}`))._tag).to.equal('Right')
    expect(parseExactJson(utf8(`${'['.repeat(maxDepth + 1)}${']'.repeat(maxDepth + 1)}`))._tag).to.equal('Left')
    // Brackets and digits inside strings are text, not structure.
    const inString = `{"a":"${'['.repeat(1000)}${'9'.repeat(1000)}\\""}`
    expect(parseExactJson(utf8(inString))).to.deep.equal({ _tag: 'Right', right: { a: `${'['.repeat(1000)}${'9'.repeat(1000)}"` } })
  })

  it('takes other limits when given them', function () {
    const limits = { maxNumberLength: 5, maxDepth: 2 }
    expect(parseExactJson(utf8('[[12345]]'), limits)._tag).to.equal('Right')
    expect(parseExactJson(utf8('[[123456]]'), limits)).to.deep.equal({
      _tag: 'Left',
      left: 'the request body holds a number longer than 5 characters',
    })
    expect(parseExactJson(utf8('[[[1]]]'), limits)).to.deep.equal({ _tag: 'Left', left: 'the request body is nested deeper than 2 levels' })
  })
})
