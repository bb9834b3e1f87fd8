import type { OpenApiDocument } from './document-shape.js'

/**
 * The id of the document's examples: above 2^53, where a double rounds it (to 9007199254740992),
 * so a tool that sends the document's examples tests that ids are kept exactly.
 */
export const EXAMPLE_ID = 9007199254740993n

/**
 * The example id in the document object: the double nearest to it, all a JS object can hold.
 * The text `openApiText` writes carries its exact digits.
 */
export const EXAMPLE_ID_AS_DOUBLE = Number(EXAMPLE_ID)

// The rounded id as a JSON number (after a colon, a bracket or a comma, before the value's end),
// never inside a string: the schema's description names both ids in words.
const ROUNDED_EXAMPLE_ID = new RegExp(`(?<=[:\\[,])${EXAMPLE_ID_AS_DOUBLE}(?=[,\\]}])`, 'g')

/**
 * The document as the JSON text the service serves: `JSON.stringify`'s, with the example id
 * written as its exact digits. Serve this rather than `JSON.stringify(openApiDocument(...))`,
 * which writes the example id rounded.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs'
 * import { DEFAULT_BODY_LIMIT_BYTES, openApiDocument, openApiText } from 'plant-store/adapters/http'
 *
 * writeFileSync('openapi.json', openApiText(openApiDocument('', { bodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES })))
 * ```
 */
export const openApiText = (document: OpenApiDocument): string => JSON.stringify(document).replace(ROUNDED_EXAMPLE_ID, EXAMPLE_ID.toString())
