// The HTTP API's shared vocabulary: what the service writes and its client reads, and how an answer
// from another server is read with a bound (the client's, the key set's fetch). The adapters
// import it; it imports only the core.
export {
  ERROR_STATUS_LIST,
  ERROR_STATUSES,
  ErrorDocumentCodec,
  errorAnswer,
  errorDocument,
  JSON_MEDIA_TYPE,
  readErrorDocument,
} from './error-document.js'
export type { ErrorAnswer, ErrorDocument, ErrorStatus } from './error-document.js'
export { readBoundedBody } from './bounded-body.js'
export type { RequestSpan, RequestTracer, TraceParent } from './request-tracing.js'
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
