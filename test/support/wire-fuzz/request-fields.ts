// Header fields the service reads from any request, as a fuzzed client writes them: well-formed,
// malformed, and long enough to cost a parser that reads them whole. Accept-Encoding and
// If-None-Match are built from the members the header-bound tests use; traceparent from the W3C
// Trace Context's shape and the ways it is got wrong.
import fc from 'fast-check'
import { acceptEncodingMember, entityTagMember, listField } from '../arbitraries.js'

/** Optional fields a request carries beside its own. */
export interface RequestFields {
  readonly acceptEncoding?: string
  /** Entity tags spelt with ETAG_PLACEHOLDER where the tag of the requested file goes. */
  readonly ifNoneMatch?: string
  readonly traceparent?: string
}

/**
 * Stands for the ETag of the requested representation (its identity coding) in a generated
 * If-None-Match, so that a scenario may name the tag the service will send without knowing it.
 */
export const ETAG_PLACEHOLDER = '{etag}'

// Near the 16 KiB Node allows for all header fields, with room for the others.
const LONG_FIELD_CHARACTERS = 14_000

const acceptEncoding = listField(acceptEncodingMember, [', ', ',', ' ', 'identity;q=0.5, ', 'x;q=0.1,'], LONG_FIELD_CHARACTERS)

const ifNoneMatch = listField(
  entityTagMember([`"${ETAG_PLACEHOLDER}"`, `"${ETAG_PLACEHOLDER}-gzip"`, `"${ETAG_PLACEHOLDER}-br"`]),
  [', "other"', ',', ' ', 'W/"x", '],
  LONG_FIELD_CHARACTERS,
)

const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length })

/** A traceparent value: the W3C shape, or one of the ways it is got wrong. */
export const traceparentField = fc.oneof(
  fc.tuple(hex(32), hex(16), fc.constantFrom('00', '01')).map(([trace, parent, flags]) => `00-${trace}-${parent}-${flags}`),
  fc.tuple(hex(32), hex(16)).map(([trace, parent]) => `00-${trace.toUpperCase()}-${parent}-01`),
  fc.tuple(hex(32), hex(16)).map(([trace, parent]) => `ff-${trace}-${parent}-01`),
  fc.tuple(hex(32), hex(16)).map(([trace, parent]) => `01-${trace}-${parent}-01-extra`),
  fc.tuple(hex(32), hex(16)).map(([trace, parent]) => `00-${trace}-${parent}-01-extra`),
  hex(16).map((parent) => `00-${'0'.repeat(32)}-${parent}-01`),
  hex(32).map((trace) => `00-${trace}-${'0'.repeat(16)}-01`),
  fc.tuple(hex(31), hex(16)).map(([trace, parent]) => `00-${trace}-${parent}-01`),
  fc.integer({ min: 56, max: LONG_FIELD_CHARACTERS }).map((length) => `00-${'a'.repeat(length)}`),
  fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((text) => text.replace(/[\r\n\0]/g, '')),
)

/** Any of the three fields, each present or not. */
export const requestFields: fc.Arbitrary<RequestFields> = fc.record(
  { acceptEncoding, ifNoneMatch, traceparent: traceparentField },
  { requiredKeys: [] },
)

/** The header lines of `fields`, the placeholder in If-None-Match replaced by `etag`. */
export const renderFields = (fields: RequestFields, etag: string | undefined): string =>
  (fields.acceptEncoding === undefined ? '' : `Accept-Encoding: ${fields.acceptEncoding}\r\n`) +
  (fields.ifNoneMatch === undefined ? '' : `If-None-Match: ${fields.ifNoneMatch.replaceAll(ETAG_PLACEHOLDER, etag ?? 'unknown')}\r\n`) +
  (fields.traceparent === undefined ? '' : `traceparent: ${fields.traceparent}\r\n`)
