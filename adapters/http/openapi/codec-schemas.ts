// The JSON Schemas of the bodies, derived from the codecs that read and write them: the fields,
// which are required and what each may hold come from the codec, only the words from the
// document. A field added to a codec is in the schema, and its words do not compile until written.
import * as t from 'io-ts'
import type * as OpenApi from 'openapi3-ts/oas31'
import { Int64, WellFormedString } from '../../../core/index.js'
import { declaredFields, ERROR_STATUS_LIST, ErrorStatusCodec } from '../../../wire/index.js'
import { WELL_FORMED } from './path-items.js'

/** What the document says of a field, beside what its codec says. */
export interface FieldWords {
  readonly description: string
  readonly examples?: unknown[]
}

/** What the document says of a body and of each field its codec declares. */
export interface SchemaWords<C extends t.Mixed> {
  readonly description: string
  readonly fields: { readonly [Field in keyof t.OutputOf<C>]-?: FieldWords }
}

// What each codec a field is read with takes, in JSON Schema's terms: the core's codecs as JSON
// carries them (an Int64 is a JSON integer, read exactly), and the wire's.
const FIELD_SCHEMAS: ReadonlyMap<t.Mixed, OpenApi.SchemaObject> = new Map<t.Mixed, OpenApi.SchemaObject>([
  [Int64, { type: 'integer', format: 'int64' }],
  [WellFormedString, { type: 'string', pattern: WELL_FORMED }],
  [t.string, { type: 'string' }],
  [ErrorStatusCodec, { type: 'integer', format: 'int32', enum: [...ERROR_STATUS_LIST] }],
])

/**
 * The JSON Schema of the body `codec` reads or writes. A body the service reads may carry fields
 * the codec does not declare, which it ignores; a body it writes carries exactly the codec's
 * fields (`additionalProperties: false`), so a strict client may rely on that.
 */
export const schemaOfCodec = <C extends t.Mixed>(codec: C, body: 'read' | 'written', words: SchemaWords<C>): OpenApi.SchemaObject => {
  const fields = declaredFields(codec)
  const wordsOf = words.fields as Readonly<Record<string, FieldWords>>
  return {
    type: 'object',
    description: words.description,
    required: fields.filter(({ required }) => required).map(({ name }) => name),
    properties: Object.fromEntries(fields.map(({ name, codec: field }) => [name, { ...fieldSchema(codec, name, field), ...wordsOf[name] }])),
    ...(body === 'written' ? { additionalProperties: false } : {}),
  }
}

const fieldSchema = (codec: t.Mixed, name: string, field: t.Mixed): OpenApi.SchemaObject => {
  const schema = FIELD_SCHEMAS.get(field)
  if (schema === undefined) throw new TypeError(`schemaOfCodec: ${codec.name}.${name} is read with ${field.name}, which has no JSON Schema here`)
  return schema
}
