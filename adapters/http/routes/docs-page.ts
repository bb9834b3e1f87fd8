import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { installedPeerFile } from '../../../wire/peers/index.js'
import type { Representation } from '../context/answer.js'
import type { RouteRequest } from '../context/route.js'
import { represent, serveRepresentations, type FixedRepresentations } from './fixed-representations.js'

/**
 * `/docs`: the API reference, rendered in the browser by Swagger UI from `/openapi.json`. Swagger
 * UI's files come from the swagger-ui-dist package and are served by this app, so the page works
 * with no internet; its Content-Security-Policy lets it load nothing from any other host.
 */
export interface DocsAsset {
  readonly path: string
  readonly route: (request: Pick<RouteRequest, 'head'>) => Representation
}

// Swagger UI styles elements inline and draws its icons as data: URIs; nothing else is allowed.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

// Every URL the page loads is relative to where it was served, so it works wherever the app is
// mounted: under koa-mount or behind a proxy that strips a prefix, /prefix/docs loads
// /prefix/docs/swagger-ui.css and /prefix/openapi.json, which reach this app.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plant Store API reference</title>
<link rel="icon" type="image/png" href="docs/favicon-32x32.png">
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/docs.js"></script>
</body>
</html>
`

// Kept apart from the page: the policy allows no inline script. The validator badge would call
// swagger.io, so it is off; every operation is shown expanded, with its responses.
const INITIALISER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: new URL('openapi.json', document.baseURI).href,
    dom_id: '#docs',
    validatorUrl: null,
    docExpansion: 'full',
    defaultModelsExpandDepth: 2,
    defaultModelExpandDepth: 2,
    deepLinking: false,
  })
})
`

/** The package whose files the page serves, needed only where the page is served. */
const DOCS_PAGE_PEER = 'swagger-ui-dist'

// The folder of Swagger UI's files, from the package's own `absolute-path.js`: its main module
// would run the browser bundle in Node (which then touches `localStorage`), and nothing here runs
// it, only serves it. Resolved as the adapter's other peers are, so it is the embedder's copy.
const swaggerUiFolder = (): string => {
  const absolutePath = installedPeerFile(`${DOCS_PAGE_PEER}/absolute-path.js`)
  if (absolutePath === undefined) {
    throw new Error(
      `plant-store/adapters/http serves the /docs page from ${DOCS_PAGE_PEER}, which is not installed: npm install ${DOCS_PAGE_PEER}, or pass docsPage: false to createHttpApp`,
    )
  }
  return dirname(absolutePath)
}

const serve = (path: string, file: FixedRepresentations): DocsAsset => ({
  path,
  route: serveRepresentations(path, file, { 'Content-Security-Policy': CONTENT_SECURITY_POLICY }),
})

let assets: ReadonlyArray<DocsAsset> | undefined

/**
 * The page and the files it loads, each with its path; read and compressed once per process.
 * Throws, naming the package and `docsPage: false`, where swagger-ui-dist is not installed.
 */
export const docsAssets = (): ReadonlyArray<DocsAsset> => {
  if (assets !== undefined) return assets
  const folder = swaggerUiFolder()
  const fromSwaggerUi = (file: string): Buffer => readFileSync(join(folder, file))
  const file = 'public, max-age=3600'
  const page = 'no-cache'
  assets = [
    serve('/docs', represent('text/html; charset=utf-8', Buffer.from(PAGE), page)),
    serve('/docs/docs.js', represent('text/javascript; charset=utf-8', Buffer.from(INITIALISER), page)),
    serve('/docs/swagger-ui.css', represent('text/css; charset=utf-8', fromSwaggerUi('swagger-ui.css'), file)),
    serve('/docs/swagger-ui-bundle.js', represent('text/javascript; charset=utf-8', fromSwaggerUi('swagger-ui-bundle.js'), file)),
    serve('/docs/favicon-32x32.png', represent('image/png', fromSwaggerUi('favicon-32x32.png'), file)),
  ]
  return assets
}
