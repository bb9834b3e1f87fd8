import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { HttpMiddleware } from '../request/request-state.js'

/**
 * `/docs`: the API reference, rendered in the browser by Swagger UI from `/openapi.json`. Swagger
 * UI's files come from the swagger-ui-dist package and are served by this app, so the page works
 * with no internet; its Content-Security-Policy lets it load nothing from any other host.
 */
export interface DocsAsset {
  readonly path: string
  readonly handler: HttpMiddleware
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

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plant Store API reference</title>
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/docs.js"></script>
</body>
</html>
`

// Kept apart from the page: the policy allows no inline script. The validator badge would call
// swagger.io, so it is off; every operation is shown expanded, with its responses.
const INITIALISER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#docs',
    validatorUrl: null,
    docExpansion: 'full',
    defaultModelsExpandDepth: 2,
    defaultModelExpandDepth: 2,
    deepLinking: false,
  })
})
`

const fromSwaggerUi = (file: string): Buffer => {
  const require = createRequire(import.meta.url)
  return readFileSync(require.resolve(`swagger-ui-dist/${file}`))
}

/** One file of the page, in each coding it is served in, with a strong ETag per coding. */
interface Representations {
  readonly type: string
  readonly cacheControl: string
  readonly identity: Buffer
  readonly br: Buffer
  readonly gzip: Buffer
  readonly etag: string
}

// Compressed once per process (the bundle is 1.7 MB; brotli at quality 5 takes it to about 0.35 MB
// in a tenth of a second), not per request: served whole, a bundle cost a request 456 us.
const represent = (type: string, body: Buffer, cacheControl: string): Representations => ({
  type,
  cacheControl,
  identity: body,
  br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: gzipSync(body, { level: 6 }),
  etag: createHash('sha256').update(body).digest('base64url').slice(0, 27),
})

// The coding a client accepts that makes the smallest answer: br, then gzip, else none.
const codingFor = (acceptEncoding: string | undefined): 'br' | 'gzip' | 'identity' => {
  const accepted = new Map(
    (acceptEncoding ?? '')
      .toLowerCase()
      .split(',')
      .map((item) => {
        const [name = '', ...parameters] = item.trim().split(';')
        const q = parameters.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
        return [name.trim(), q === undefined ? 1 : Number(q)] as const
      }),
  )
  const wants = (coding: string): boolean => (accepted.get(coding) ?? accepted.get('*') ?? 0) > 0
  return wants('br') ? 'br' : wants('gzip') ? 'gzip' : 'identity'
}

const serve =
  (file: Representations): HttpMiddleware =>
  async (ctx) => {
    const coding = codingFor(ctx.get('Accept-Encoding'))
    const etag = `"${file.etag}${coding === 'identity' ? '' : `-${coding}`}"`
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    ctx.set('X-Content-Type-Options', 'nosniff')
    ctx.set('Cache-Control', file.cacheControl)
    ctx.vary('Accept-Encoding')
    ctx.set('ETag', etag)
    const known = ctx.get('If-None-Match')
    if (known !== '' && known.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      ctx.status = 304
      return
    }
    ctx.status = 200
    ctx.type = file.type
    if (coding !== 'identity') ctx.set('Content-Encoding', coding)
    ctx.body = file[coding]
  }

let assets: ReadonlyArray<DocsAsset> | undefined

/** The page and the files it loads, each with its path; read and compressed once per process. */
export const docsAssets = (): ReadonlyArray<DocsAsset> => {
  if (assets !== undefined) return assets
  const file = 'public, max-age=3600'
  const page = 'no-cache'
  assets = [
    { path: '/docs', handler: serve(represent('text/html; charset=utf-8', Buffer.from(PAGE), page)) },
    { path: '/docs/docs.js', handler: serve(represent('text/javascript; charset=utf-8', Buffer.from(INITIALISER), page)) },
    { path: '/docs/swagger-ui.css', handler: serve(represent('text/css; charset=utf-8', fromSwaggerUi('swagger-ui.css'), file)) },
    { path: '/docs/swagger-ui-bundle.js', handler: serve(represent('text/javascript; charset=utf-8', fromSwaggerUi('swagger-ui-bundle.js'), file)) },
    { path: '/docs/favicon-32x32.png', handler: serve(represent('image/png', fromSwaggerUi('favicon-32x32.png'), file)) },
  ]
  return assets
}
