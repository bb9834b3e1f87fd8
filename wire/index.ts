// The wire: what the HTTP side of the house shares, beside the core. The operation's one
// definition, the Error document and the messages the service writes and its client reads, the
// NewPlant as JSON text and the fields a codec declares, the bounded reader of another server's answer (the client's, the key
// set's fetch), the request tracer's types, the system clock every timed policy is given, and the
// checks of the numbers an embedder hands an adapter. The adapters import it through this index; it imports only the core. The exact JSON
// reader is the wire's too, behind an index of its own (exact-json/index.ts): it needs
// lossless-json, which an adapter importing this index (the client, in-memory storage) must not.
export {
  CREATE_PLANT,
  CREATE_PLANT_ERRORS,
  isCreatePlantError,
} from './create-plant-operation.js'
export type { CreatePlantErrorAnswer, CreatePlantErrorStatus, CreatePlantStatus } from './create-plant-operation.js'
export {
  ERROR_STATUS_LIST,
  ERROR_STATUSES,
  ErrorDocumentCodec,
  ErrorStatusCodec,
  errorAnswer,
  errorDocument,
  JSON_MEDIA_TYPE,
  readErrorDocument,
} from './error-document.js'
export type { ErrorAnswer, ErrorDocument, ErrorStatus } from './error-document.js'
export { readBoundedBody } from './bounded-body.js'
export { declaredFields } from './declared-fields.js'
export type { DeclaredField } from './declared-fields.js'
export type { RequestHeaders, RequestSpan, RequestTracer } from './request-tracing.js'
export { jsonViolations, newPlantJsonText } from './new-plant-json.js'
export {
  invalidNewPlantMessage,
  storageFullMessage,
  storageLimitFrom,
  unavailableMessage,
  unavailableReasonFrom,
  violationsFromMessage,
} from './messages.js'
export type { UnavailableReason } from './messages.js'
export { systemClock } from './system-clock.js'
export { MAX_TIMER_MS, wholeNumberOption } from './whole-number.js'
