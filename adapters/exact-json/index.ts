// The exact JSON reader: JSON text to the untrusted value `createPlant` parses, every int64 kept
// exact as a bigint. Shared by the HTTP adapter and offered alone (`plant-store/json`) to
// embedders that read JSON from elsewhere (a queue, a file): it needs lossless-json, not Koa.
export { exactJsonParser, parseExactJson } from './exact-json.js'
export { DEFAULT_JSON_LIMITS } from './json-bounds.js'
export type { JsonLimits } from './json-bounds.js'
