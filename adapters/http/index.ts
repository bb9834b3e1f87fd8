// The public surface of the HTTP adapter, named export by export.
export { createHttpApp } from './app.js'
export type { HttpAppDeps } from './app.js'
export { isLiteralBasePath } from './base-path.js'
export type { ErrorDocument, ErrorStatus } from './error-document.js'
export { parseExactJson } from './exact-json.js'
export { createHttpServer } from './http-server.js'
export type { Logger } from './logger.js'
export { openApiDocument } from './openapi-document.js'
