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
