import fc from 'fast-check'
import { INT64_MAX, INT64_MIN } from '../../core/index.js'

/** Every int64, edges included (fast-check favours the bounds). */
export const int64 = fc.bigInt({ min: INT64_MIN, max: INT64_MAX })

/** Integers just outside int64 and far outside it, on both sides. */
export const beyondInt64 = fc.oneof(
  fc.bigInt({ min: INT64_MAX + 1n, max: 2n ** 128n }),
  fc.bigInt({ min: -(2n ** 128n), max: INT64_MIN - 1n }),
)

/** Well-formed Unicode text of any code points: astral, combining, controls and U+0000 included. */
export const wellFormedText = fc.string({ unit: 'binary', maxLength: 20 })

/** A NewPlant as a client would send it: an int64 id, a name and, sometimes, a tag. */
export const newPlantInput = fc.record(
  { id: int64, name: wellFormedText, tag: wellFormedText },
  { requiredKeys: ['id', 'name'] },
)

/** Text with at least one lone surrogate in it, so it cannot be encoded as UTF-8. */
export const textWithLoneSurrogate = fc
  .tuple(wellFormedText, fc.integer({ min: 0xd800, max: 0xdfff }), wellFormedText)
  .map(([before, unit, after]) => `${before}${String.fromCharCode(unit)}${after}`)
  .filter((text) => !text.isWellFormed())

/**
 * A text no reporter has reason to write on its own: a test that finds it in a message knows the
 * message repeats what the client sent.
 */
export const SUBMITTED_MARKER = 'Zq7-submitted-secret'

/** Values of every JSON-ish kind that carry SUBMITTED_MARKER somewhere inside them. */
export const markedValue = fc.oneof(
  wellFormedText.map((text) => `${SUBMITTED_MARKER}${text}`),
  textWithLoneSurrogate.map((text) => `${SUBMITTED_MARKER}${text}`),
  fc.constant({ [SUBMITTED_MARKER]: SUBMITTED_MARKER }),
  fc.constant([SUBMITTED_MARKER]),
)

// Optional whitespace as RFC 9110 section 5.6.3 has it (spaces and tabs), runs of it included.
const ows = fc.constantFrom('', ' ', '\t', '  ', ' \t ')

/** A qvalue as RFC 9110 section 12.4.2 writes it: 0 to 1, at most three decimals. */
export const qvalue = fc.oneof(
  fc.constantFrom('0', '1', '0.', '1.', '1.0', '1.00', '1.000'),
  fc
    .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 999 }))
    .map(([decimals, thousandths]) => `0.${String(thousandths).padStart(3, '0').slice(0, decimals)}`),
)

/** What a careless or hostile client writes where a qvalue goes; none of it is one. */
export const malformedQvalue = fc.constantFrom(
  'NaN', 'Infinity', '2', '1.5', '1.001', '0.1234', '-0.5', '-0', '+1', '.5', '01', '0x1', '1e0', 'abc', '', '0.5 0', '0.5;',
)

/** A content coding as a client names it, with a weight or none, well-formed or not. */
export const acceptEncodingMember = fc
  .tuple(
    fc.constantFrom('br', 'gzip', '*', 'identity', 'deflate', 'zstd', 'BR', 'Gzip', 'GZIP', 'x-gzip', 'brotli', 'b r', ''),
    fc.oneof(
      fc.constant(''),
      fc.tuple(ows, ows, fc.constantFrom('q', 'Q'), qvalue).map(([before, after, q, value]) => `${before};${after}${q}=${value}`),
      fc.tuple(ows, ows, malformedQvalue).map(([before, after, value]) => `${before};${after}q=${value}`),
      fc.constantFrom(';level=1', '; q = 0.5', ';q=0.5;q=1', ';', ';;q=1'),
    ),
  )
  .map(([coding, weight]) => `${coding}${weight}`)

/**
 * A list field (RFC 9110 section 5.6.1) of the given members, separated by commas and optional
 * whitespace, empty members included, sometimes padded with up to `maxPadding` characters of
 * other members before or after them, as a header near the server's 16 KiB limit would be.
 */
export const listField = (member: fc.Arbitrary<string>, padding: ReadonlyArray<string>, maxPadding: number): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.array(fc.tuple(member, ows, ows), { maxLength: 8 }),
      fc.constantFrom(...padding),
      fc.oneof(fc.constant(0), fc.integer({ min: 0, max: maxPadding })),
      fc.boolean(),
    )
    .map(([members, pad, padLength, padFirst]) => {
      const listed = members.map(([text, before, after]) => `${before}${text}${after}`).join(',')
      const filler = pad.repeat(Math.ceil(padLength / pad.length)).slice(0, padLength)
      return padFirst ? `${filler}${listed}` : `${listed}${filler}`
    })

/**
 * A member of an If-None-Match list: one of `etags` (strong, weak, or spelt almost right), `*`, or
 * something that is none of them.
 */
export const entityTagMember = (etags: ReadonlyArray<string>): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...etags),
    fc.constantFrom(...etags).map((etag) => `W/${etag}`),
    fc
      .tuple(fc.constantFrom(...etags), fc.integer({ min: 0, max: 3 }))
      .map(([etag, spelling]) => [`w/${etag}`, etag.slice(1, -1), `${etag}x`, `"${etag}"`][spelling] ?? etag),
    fc.constantFrom('*', 'W/*', '"other"', 'W/"other"', '""', '"', ''),
  )
