// The exact JSON reader: JSON text to the untrusted value `createPlant` parses, every int64 kept
// exact as a bigint. Part of the wire, and offered alone (`plant-store/json`) to embedders that
// read JSON from elsewhere (a queue, a file): it needs lossless-json, not Koa.
export { DEFAULT_JSON_LIMITS, exactJsonParser, parseExactJson } from './exact-json.js'
export type { JsonLimits } from './exact-json.js'
