// The HTTP API's shared vocabulary: what the service writes and its client reads. Both adapters
// import it; it imports only the core.
export { ERROR_STATUS_LIST, ERROR_STATUSES, ErrorDocumentCodec, errorDocument, readErrorDocument } from './error-document.js'
export type { ErrorDocument, ErrorStatus } from './error-document.js'
export { jsonViolations } from './json-violations.js'
export {
  invalidNewPlantMessage,
  storageFullMessage,
  storageLimitFrom,
  unavailableMessage,
  unavailableReasonFrom,
  violationsFromMessage,
} from './messages.js'
export type { UnavailableReason } from './messages.js'
