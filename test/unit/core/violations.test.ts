import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import * as t from 'io-ts'
import { PathReporter } from 'io-ts/lib/PathReporter.js'
import { NewPlant, toViolations, WellFormedString, type Violation } from '../../../core/index.js'
import { markedValue, SUBMITTED_MARKER } from '../../support/arbitraries.js'
import { propertyRuns } from '../../support/property-runs.js'

const violationsFrom = <A, O>(codec: t.Type<A, O>, input: unknown): ReadonlyArray<Violation> => {
  const result = codec.decode(input)
  if (E.isRight(result)) expect.fail('expected the codec to refuse the input')
  return toViolations(result.left)
}

const pathsFrom = <A, O>(codec: t.Type<A, O>, input: unknown): ReadonlyArray<string> =>
  violationsFrom(codec, input).map((v) => v.path)

// A codec nested the way the domain nests them: exact intersections of types and partials.
const Garden = t.type({
  plot: t.exact(
    t.intersection([
      t.type({ bed: t.type({ plant: WellFormedString }) }),
      t.partial({ label: WellFormedString, rows: t.number }),
    ]),
  ),
})

describe('toViolations', function () {
  it('names NewPlant fields by their keys, without the exact and intersection wrappers', function () {
    expect(violationsFrom(NewPlant, { id: 1.5, name: null, tag: 2 })).to.deep.equal([
      { path: 'id', expected: 'an integer from -9223372036854775808 to 9223372036854775807' },
      { path: 'name', expected: 'a string' },
      { path: 'tag', expected: 'a string' },
    ])
  })

  it('names nested fields by their dotted path, through exact intersections', function () {
    expect(violationsFrom(Garden, { plot: { bed: { plant: 5 }, label: '\uD800', rows: 'three' } })).to.deep.equal([
      { path: 'plot.bed.plant', expected: 'a string' },
      { path: 'plot.label', expected: 'a string of well-formed Unicode (no lone surrogate)' },
      { path: 'plot.rows', expected: 'a number' },
    ])
    expect(pathsFrom(Garden, { plot: {} })).to.deep.equal(['plot.bed'])
    expect(pathsFrom(Garden, {})).to.deep.equal(['plot'])
  })

  it('reports each (path, expectation) once, however many members of a union say it', function () {
    const Either = t.type({ name: t.union([WellFormedString, WellFormedString, t.number]) })
    expect(violationsFrom(Either, { name: true })).to.deep.equal([
      { path: 'name', expected: 'a string' },
      { path: 'name', expected: 'a number' },
    ])
  })

  it('marks a field that is absent, or undefined, as missing, and one that holds a wrong value as not', function () {
    expect(violationsFrom(NewPlant, { tag: 'aroid' })).to.deep.equal([
      { path: 'id', expected: 'an integer from -9223372036854775808 to 9223372036854775807', missing: true },
      { path: 'name', expected: 'a string', missing: true },
    ])
    expect(violationsFrom(NewPlant, { id: 1n, name: undefined })).to.deep.equal([{ path: 'name', expected: 'a string', missing: true }])
    expect(violationsFrom(Garden, { plot: {} })).to.deep.equal([{ path: 'plot.bed', expected: 'a JSON object', missing: true }])
  })

  it('calls a body that is not an object "a JSON object", with the empty path', function () {
    expect(violationsFrom(NewPlant, [])).to.deep.equal([{ path: '', expected: 'a JSON object' }])
  })

  it('never repeats the submitted value', function () {
    fc.assert(
      fc.property(fc.constantFrom('id', 'name', 'tag'), markedValue, (field, value) => {
        const result = NewPlant.decode({ id: 1n, name: 'x', [field]: value })
        if (E.isRight(result)) return // a marked well-formed text is a valid name or tag
        expect(JSON.stringify(toViolations(result.left))).not.to.include(SUBMITTED_MARKER)
      }),
      { numRuns: propertyRuns(200) },
    )
  })

  it('never repeats the submitted value even for codecs without messages, where io-ts\'s PathReporter does', function () {
    const Counted = t.type({ count: t.number, plot: Garden.props.plot })
    fc.assert(
      fc.property(markedValue, (value) => {
        const result = Counted.decode({ count: value, plot: { bed: { plant: value }, rows: value } })
        expect(JSON.stringify(toViolations(E.isLeft(result) ? result.left : []))).not.to.include(SUBMITTED_MARKER)
        expect(PathReporter.report(result).join('\n')).to.include(SUBMITTED_MARKER)
      }),
      { numRuns: propertyRuns(100) },
    )
  })

  it('names a field of an exact type that is not an intersection', async function () {
    expect(pathsFrom(t.exact(t.type({ error: t.number, message: t.string })), { error: '400', message: 'm' })).to.deep.equal(['error'])
    expect(pathsFrom(t.type({ a: t.exact(t.type({ b: t.string })) }), { a: { b: 1 } })).to.deep.equal(['a.b'])
  })

  it('names the element of an array that is wrong', async function () {
    const Plants = t.type({ plants: t.array(t.type({ name: t.string })) })
    expect(pathsFrom(Plants, { plants: [{ name: 'a' }, { name: 1 }] })).to.deep.equal(['plants.1.name'])
  })

  it('says what a top-level codec that is not an object expected', async function () {
    expect(violationsFrom(t.string, 5)).to.deep.equal([{ path: '', expected: 'a string' }])
  })
})
