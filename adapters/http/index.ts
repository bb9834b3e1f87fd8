// The public surface of the HTTP adapter, named export by export.
export { createHttpApp } from './app.js'
export type { HttpAppDeps } from './app.js'
export { isLiteralBasePath } from './base-path.js'
export { createHttpServer } from './http-server.js'
export type { Logger } from './logger.js'
export { openApiDocument } from './openapi-document.js'
