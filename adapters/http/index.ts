// The public surface of the HTTP adapter, named export by export.
export { createHttpApp, DEFAULT_BODY_LIMIT_BYTES, DEFAULT_READINESS_MAX_AGE_MS } from './app.js'
export type { HttpAppDeps } from './app.js'
export type { CrossOriginPolicy } from './request/cross-origin.js'
export { isLiteralBasePath } from './routes/dispatch.js'
export type { ErrorDocument, ErrorStatus } from '../../wire/index.js'
export { DEFAULT_JSON_LIMITS, parseExactJson } from '../../wire/exact-json/index.js'
export type { JsonLimits } from '../../wire/exact-json/index.js'
export {
  createBoundedServer,
  createHttpServer,
  cutHalfSentRequests,
  DEFAULT_HTTP_SERVER_LIMITS,
  DEFAULT_MAX_REQUESTS_WAITING,
  DEFAULT_SEND_TIMEOUT_MS,
} from './server/http-server.js'
export type { BoundedServer, ExpectationListeners, HttpServerLimits } from './server/http-server.js'
export type { HttpObserver, Logger, RequestHeaders, RequestSpan, RequestTracer } from './ports/telemetry.js'
export { warningsToConsole } from './ports/telemetry.js'
export { openApiDocument } from './openapi/document.js'
export { EXAMPLE_ID, openApiText } from './openapi/document-text.js'
export type { OpenApiDocument } from './openapi/document-shape.js'
export type { DocumentedLimits } from './openapi/error-answers.js'
export type { DocumentedFeatures } from './openapi/document.js'
export { requestIdFrom } from './context/request-context.js'
