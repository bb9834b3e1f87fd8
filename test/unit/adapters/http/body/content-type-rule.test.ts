import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import type { IncomingMessage } from 'node:http'
import { makeJsonBodyReader, type BodyHead } from '../../../../../adapters/http/body/json-body.js'
import type { DecodeQueue } from '../../../../../adapters/http/body/decode-queue.js'
import { DEFAULT_JSON_LIMITS } from '../../../../../wire/exact-json/index.js'
import { propertyRuns } from '../../../../support/property-runs.js'

// The rule, as docs/http-api.md states it: a body is read as JSON when its request has one
// Content-Type line, of at most 256 characters, that is a media type as RFC 9110 section 8.3.1
// writes one, of type application/json or application/<name>+json in any case, whose parameters
// name charset at most once, as utf-8 or utf8 in any case; every other request is answered 415.
//
// The oracle judges the field from how it was generated, never by parsing the text: each part is
// drawn well-formed or broken, and the oracle knows which.
describe('Content-Type, against its rule over generated fields', () => {
  // A request announcing no body: one the rule lets through fails as an empty JSON text (400).
  const readJsonBody = makeJsonBodyReader(1024, DEFAULT_JSON_LIMITS, undefined as unknown as DecodeQueue)
  const isReadAsJson = async (contentTypeLines: number, contentType: string | undefined): Promise<boolean> => {
    const head: BodyHead = { contentTypeLines, contentType, contentEncoding: undefined, contentLength: undefined, transferEncoding: undefined }
    const read = await readJsonBody({} as IncomingMessage, head, undefined)()
    expect(E.isLeft(read), 'an empty body is never a plant').to.equal(true)
    const tag = E.isLeft(read) ? read.left._tag : 'Right'
    expect(tag).to.be.oneOf(['UnsupportedMediaType', 'MalformedBody'])
    return tag === 'MalformedBody'
  }

  interface Part {
    readonly text: string
    readonly wellFormed: boolean
  }
  const TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split('')
  const token = fc.array(fc.constantFrom(...TCHARS), { minLength: 1, maxLength: 8 }).map((chars) => chars.join(''))
  const part = (text: fc.Arbitrary<string>, wellFormed = true): fc.Arbitrary<Part> => text.map((t) => ({ text: t, wellFormed }))
  // Characters no token holds, and the empty text.
  const brokenToken = fc.constantFrom('', 'a b', 'a@b', 'a,b', 'a(b)', 'é', '"a"', 'a/b', 'a\u0100')
  const ows = fc.constantFrom('', ' ', '\t', '  ')

  const typeName = fc.oneof(
    { arbitrary: part(fc.constantFrom('application', 'APPLICATION', 'Application')), weight: 6 },
    { arbitrary: part(fc.constantFrom('text', 'image', 'applications')), weight: 1 },
    { arbitrary: part(token), weight: 1 },
    { arbitrary: part(brokenToken, false), weight: 1 },
  )
  const subtypeName = fc.oneof(
    { arbitrary: part(fc.constantFrom('json', 'JSON', 'Json', 'ld+json', 'merge-patch+JSON', 'a+b+json')), weight: 6 },
    { arbitrary: part(fc.constantFrom('+json', 'json+ld', 'jsonx', 'xjson', 'plain', 'json-seq')), weight: 2 },
    { arbitrary: part(token.map((t) => `${t}+json`)), weight: 1 },
    { arbitrary: part(token), weight: 1 },
    { arbitrary: part(brokenToken, false), weight: 1 },
  )

  // A parameter value as written, and what it says once unquoted.
  interface Value extends Part {
    readonly says: string
  }
  const QDTEXT = ['a', 'U', '-', '8', ' ', '\t', ';', '=', ',', '/', '\u00e9']
  const quotedChar = fc.oneof(
    fc.constantFrom(...QDTEXT).map((c) => ({ text: c, says: c })),
    fc.constantFrom('"', '\\', 'a', ' ').map((c) => ({ text: `\\${c}`, says: c })),
  )
  const charsetValue: fc.Arbitrary<Value> = fc.oneof(
    { arbitrary: fc.constantFrom('utf-8', 'UTF-8', 'utf8', 'Utf8', 'latin1', 'iso-8859-1', 'utf-16', 'utf-8x').map((v) => ({ text: v, says: v, wellFormed: true })), weight: 5 },
    { arbitrary: fc.constantFrom('utf-8', 'UTF-8', 'utf8', 'ascii', '').map((v) => ({ text: `"${v}"`, says: v, wellFormed: true })), weight: 2 },
    { arbitrary: fc.constant({ text: '"utf\\-8"', says: 'utf-8', wellFormed: true }), weight: 1 },
  )
  const otherValue: fc.Arbitrary<Value> = fc.oneof(
    token.map((v) => ({ text: v, says: v, wellFormed: true })),
    fc.array(quotedChar, { maxLength: 6 }).map((chars) => ({
      text: `"${chars.map(({ text }) => text).join('')}"`,
      says: chars.map(({ says }) => says).join(''),
      wellFormed: true,
    })),
  )
  // Each broken for good: no text after it can make it well-formed.
  const brokenValue: fc.Arbitrary<Value> = fc.constantFrom('', '"a\u0100"', '"a\x7f"', 'a b', '"a"b', 'é').map((v) => ({ text: v, says: v, wellFormed: false }))

  // One step of the parameter list: `OWS ";" OWS`, then a parameter, nothing, or something that
  // is not a parameter.
  interface Step extends Part {
    readonly parameter?: { readonly name: string; readonly value: Value }
  }
  const parameter = fc.oneof(
    { arbitrary: fc.record({ name: fc.constantFrom('charset', 'CHARSET', 'Charset'), value: fc.oneof({ arbitrary: charsetValue, weight: 6 }, { arbitrary: brokenValue, weight: 1 }) }), weight: 3 },
    { arbitrary: fc.record({ name: fc.oneof(token, fc.constantFrom('q', 'foo', 'charsets', 'profile')), value: fc.oneof({ arbitrary: otherValue, weight: 6 }, { arbitrary: brokenValue, weight: 1 }) }), weight: 2 },
  )
  const step: fc.Arbitrary<Step> = fc.tuple(ows, ows, fc.oneof(
    { arbitrary: parameter.map((p) => ({ text: `${p.name}=${p.value.text}`, wellFormed: p.value.wellFormed, parameter: p })), weight: 6 },
    { arbitrary: fc.constant({ text: '', wellFormed: true }), weight: 1 },
    // Whitespace around "=", a name alone, a name and "=" with nothing after: not parameters.
    { arbitrary: fc.constantFrom('charset =utf-8', 'charset= utf-8', 'charset', 'foo', 'charset=', '=utf-8').map((text) => ({ text, wellFormed: false })), weight: 1 },
  )).map(([before, after, p]) => ({ ...p, text: `${before};${after}${p.text}` }))

  const field = fc.record({
    lead: ows,
    type: typeName,
    slash: fc.oneof({ arbitrary: part(fc.constant('/')), weight: 12 }, { arbitrary: part(fc.constantFrom('', ' / ', '//'), false), weight: 1 }),
    subtype: subtypeName,
    steps: fc.array(step, { maxLength: 4 }),
    // Text after the parameters that is not one more step.
    tail: fc.oneof({ arbitrary: part(ows), weight: 8 }, { arbitrary: part(fc.constantFrom(', text/plain', ' x', ' /json'), false), weight: 1 }),
    padding: fc.oneof({ arbitrary: fc.constant(0), weight: 8 }, { arbitrary: fc.integer({ min: 200, max: 300 }), weight: 1 }),
  })

  type Field = typeof field extends fc.Arbitrary<infer F> ? F : never

  const rendered = ({ lead, type, slash, subtype, steps, tail, padding }: Field): string => {
    // A long field: one more well-formed parameter, so only its length decides.
    const long = padding === 0 ? '' : `;p=${'x'.repeat(padding)}`
    return `${lead}${type.text}${slash.text}${subtype.text}${steps.map(({ text }) => text).join('')}${long}${tail.text}`
  }

  const ruleSays = (lines: number, generated: Field, text: string): boolean => {
    const { type, slash, subtype, steps, tail } = generated
    if (lines !== 1 || text.length > 256) return false
    const wellFormed = [type, slash, subtype, tail, ...steps].every(({ wellFormed }) => wellFormed)
    if (!wellFormed) return false
    const sub = subtype.text.toLowerCase()
    const json = type.text.toLowerCase() === 'application' && (sub === 'json' || (sub.endsWith('+json') && sub.length > '+json'.length))
    if (!json) return false
    const charsets = steps.flatMap(({ parameter }) => (parameter !== undefined && parameter.name.toLowerCase() === 'charset' ? [parameter.value.says.toLowerCase()] : []))
    return charsets.length === 0 || (charsets.length === 1 && (charsets[0] === 'utf-8' || charsets[0] === 'utf8'))
  }

  it('reads a body as JSON exactly when the rule says so', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof({ arbitrary: fc.constant(1), weight: 8 }, { arbitrary: fc.constantFrom(2, 3), weight: 1 }), field, async (lines, generated) => {
        const text = rendered(generated)
        expect(await isReadAsJson(lines, text), JSON.stringify(text)).to.equal(ruleSays(lines, generated, text))
      }),
      { numRuns: propertyRuns(3000) },
    )
  })

  it('answers a request with no Content-Type, or any text at all, without throwing', async () => {
    expect(await isReadAsJson(0, undefined)).to.equal(false)
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (text) => {
        await isReadAsJson(1, text)
      }),
    )
  })
})
