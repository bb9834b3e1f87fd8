// The HTTP API's shared vocabulary: what the service writes and its client reads. Both adapters
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
