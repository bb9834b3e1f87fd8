// What one request of a generated sequence looks like, as a value a person can read in a
// counterexample (a size, a variant's name), and the bytes it stands for. Sound requests sit
// beside the shapes that broke HTTP servers before: framing mixes, oversized headers, request
// lines a parser refuses, bytes that are no HTTP at all, requests cut short, forged tokens,
// damaged compressed bodies, and header fields long enough to cost whoever reads them whole.
import fc from 'fast-check'
import { INT64_MAX, INT64_MIN } from '../../../core/index.js'
import { bodyCoding, codeBody, type BodyCoding } from './coded-bodies.js'
import { TOKEN_KINDS, type TokenKind } from './fuzz-credentials.js'
import { renderFields, requestFields, traceparentField, type RequestFields } from './request-fields.js'

/** Node refuses request headers past 16 KiB (its default `--max-http-header-size`). */
export const NODE_HEADER_LIMIT_BYTES = 16 * 1024

/** Paths a GET or HEAD asks for; `/nowhere` is a path neither listener knows. */
export type Path =
  | '/healthz'
  | '/readyz'
  | '/metrics'
  | '/openapi.json'
  | '/nowhere'
  | '/docs'
  | '/docs/docs.js'
  | '/docs/swagger-ui.css'
  | '/docs/swagger-ui-bundle.js'
  | '/docs/favicon-32x32.png'

export const PATHS: ReadonlyArray<Path> = [
  '/healthz',
  '/readyz',
  '/metrics',
  '/openapi.json',
  '/nowhere',
  '/docs',
  '/docs/docs.js',
  '/docs/swagger-ui.css',
  '/docs/swagger-ui-bundle.js',
  '/docs/favicon-32x32.png',
]

/** What rendering needs from the running service: the text of each token, and the ETag of each path. */
export interface RenderContext {
  readonly tokenOf: (kind: TokenKind) => string | undefined
  /** The ETag of the path's identity representation, without quotes; undefined where it has none. */
  readonly etagOf: (path: string) => string | undefined
}

/** How the body of a request says where it ends; the mixes are the smuggling shapes. */
export type Framing =
  | 'content-length'
  | 'chunked'
  | 'chunked-and-content-length'
  | 'content-length-twice-differing'
  | 'content-length-not-a-number'
  | 'chunked-bad-size'
  | 'gzip-then-chunked'
  | 'chunked-then-identity'
  | 'content-length-beyond-body'

export type RequestShape =
  /** A request without a body; `/nowhere` is a path neither listener knows. */
  | { readonly _tag: 'Get'; readonly path: Path; readonly close: boolean; readonly fields: RequestFields }
  | {
      readonly _tag: 'CreatePlant'
      readonly token: TokenKind
      readonly id: bigint
      readonly name: string
      readonly framing: Framing
      readonly contentType: 'application/json' | 'text/plain'
      /** An `Expect` header: none, the one HTTP/1.1 defines, or one no server can meet. */
      readonly expect: 'none' | '100-continue' | 'unknown'
      readonly coding: BodyCoding
      readonly traceparent?: string
    }
  /** A request line a parser refuses, sent with a Host header and an empty line after it. */
  | { readonly _tag: 'BadRequestLine'; readonly line: string }
  /** Bytes that are not HTTP, latin1. */
  | { readonly _tag: 'Garbage'; readonly bytes: string }
  /** A GET whose headers (one long Cookie, or many short fields) add up to `bytes`, past Node's limit. */
  | { readonly _tag: 'OversizedHeaders'; readonly bytes: number; readonly asOneField: boolean }
  /** A GET without Host: HTTP/1.1 requires one. */
  | { readonly _tag: 'NoHost' }
  /** The first bytes of a sound request (`keep` modulo its length), the rest never sent. */
  | { readonly _tag: 'Cut'; readonly of: RequestShape; readonly keep: number }

const CRLF = '\r\n'

const tokenHeader = (token: string | undefined): string => (token === undefined ? '' : `Authorization: Bearer ${token}${CRLF}`)

const EXPECT_HEADER = { none: '', '100-continue': `Expect: 100-continue${CRLF}`, unknown: `Expect: 200-ok${CRLF}` } as const

const chunked = (body: string): string => `${body.length.toString(16)}${CRLF}${body}${CRLF}0${CRLF}${CRLF}`

// The framing headers and the body bytes that follow them.
const framed = (framing: Framing, body: string): { readonly headers: string; readonly body: string } => {
  const length = Buffer.byteLength(body, 'latin1')
  switch (framing) {
    case 'content-length':
      return { headers: `Content-Length: ${length}${CRLF}`, body }
    case 'chunked':
      return { headers: `Transfer-Encoding: chunked${CRLF}`, body: chunked(body) }
    case 'chunked-and-content-length':
      return { headers: `Transfer-Encoding: chunked${CRLF}Content-Length: ${length}${CRLF}`, body: chunked(body) }
    case 'content-length-twice-differing':
      return { headers: `Content-Length: ${length}${CRLF}Content-Length: ${length + 1}${CRLF}`, body }
    case 'content-length-not-a-number':
      return { headers: `Content-Length: ${length}x${CRLF}`, body }
    case 'chunked-bad-size':
      return { headers: `Transfer-Encoding: chunked${CRLF}`, body: `zz${CRLF}${body}${CRLF}0${CRLF}${CRLF}` }
    case 'gzip-then-chunked':
      return { headers: `Transfer-Encoding: gzip, chunked${CRLF}`, body: chunked(body) }
    case 'chunked-then-identity':
      return { headers: `Transfer-Encoding: chunked, identity${CRLF}`, body: chunked(body) }
    case 'content-length-beyond-body':
      return { headers: `Content-Length: ${length + 10}${CRLF}`, body }
  }
}

/** The bytes of a request, as a latin1 string (one character per byte). */
export const renderRequest = (shape: RequestShape, context: RenderContext): string => {
  switch (shape._tag) {
    case 'Get':
      return renderGet('GET', shape.path, shape.close, shape.fields, context)
    case 'CreatePlant': {
      const json = Buffer.from(`{"id":${shape.id},"name":${JSON.stringify(shape.name)}}`, 'utf8').toString('latin1')
      const coded = codeBody(shape.coding, json)
      const { headers, body } = framed(shape.framing, coded.body)
      return (
        `POST /plants HTTP/1.1${CRLF}Host: fuzz${CRLF}${tokenHeader(context.tokenOf(shape.token))}` +
        `Content-Type: ${shape.contentType}${CRLF}${EXPECT_HEADER[shape.expect]}${coded.field}` +
        `${renderFields(shape.traceparent === undefined ? {} : { traceparent: shape.traceparent }, undefined)}` +
        `${headers}${CRLF}${body}`
      )
    }
    case 'BadRequestLine':
      return `${shape.line}${CRLF}Host: fuzz${CRLF}${CRLF}`
    case 'Garbage':
      return shape.bytes
    case 'OversizedHeaders': {
      const head = `GET /healthz HTTP/1.1${CRLF}Host: fuzz${CRLF}`
      const room = Math.max(0, shape.bytes - head.length)
      const fields = shape.asOneField
        ? `Cookie: c=${'x'.repeat(room)}${CRLF}`
        : Array.from({ length: Math.ceil(room / 100) }, (_, i) => `X-F${i}: ${'y'.repeat(92)}${CRLF}`).join('')
      return `${head}${fields}${CRLF}`
    }
    case 'NoHost':
      return `GET /healthz HTTP/1.1${CRLF}${CRLF}`
    case 'Cut': {
      const whole = renderRequest(shape.of, context)
      return whole.slice(0, shape.keep % Math.max(1, whole.length))
    }
  }
}

/** A GET or HEAD of `path` with the given optional fields. */
export const renderGet = (method: 'GET' | 'HEAD', path: Path, close: boolean, fields: RequestFields, context: RenderContext): string =>
  `${method} ${path} HTTP/1.1${CRLF}Host: fuzz${CRLF}${close ? `Connection: close${CRLF}` : ''}${renderFields(fields, context.etagOf(path))}${CRLF}`

export const path: fc.Arbitrary<Path> = fc.constantFrom(...PATHS)

const get: fc.Arbitrary<RequestShape> = fc.record({
  _tag: fc.constant('Get' as const),
  path,
  close: fc.boolean(),
  fields: fc.oneof(fc.constant({}), requestFields),
})

const createPlant: fc.Arbitrary<RequestShape> = fc.record({
  _tag: fc.constant('CreatePlant' as const),
  token: fc.oneof(fc.constantFrom<TokenKind>('static', 'jwt'), fc.constantFrom(...TOKEN_KINDS)),
  id: fc.oneof(fc.bigInt({ min: 1n, max: 50n }), fc.bigInt({ min: INT64_MIN, max: INT64_MAX })),
  name: fc.oneof(fc.constantFrom('Monstera', 'Fern', ''), fc.string({ unit: 'binary', maxLength: 12 })),
  framing: fc.constantFrom<Framing>(
    'content-length',
    'chunked',
    'chunked-and-content-length',
    'content-length-twice-differing',
    'content-length-not-a-number',
    'chunked-bad-size',
    'gzip-then-chunked',
    'chunked-then-identity',
    'content-length-beyond-body',
  ),
  contentType: fc.constantFrom('application/json' as const, 'text/plain' as const),
  expect: fc.constantFrom('none' as const, '100-continue' as const, 'unknown' as const),
  coding: bodyCoding,
  traceparent: traceparentField,
}, { requiredKeys: ['_tag', 'token', 'id', 'name', 'framing', 'contentType', 'expect', 'coding'] })

const badRequestLine: fc.Arbitrary<RequestShape> = fc.record({
  _tag: fc.constant('BadRequestLine' as const),
  line: fc.oneof(
    fc.constantFrom(
      'GET',
      'GET /healthz',
      'GET /healthz HTTP/9.9',
      'GET  /healthz HTTP/1.1',
      'G\u00c9T /healthz HTTP/1.1',
      'GET /he\u0000althz HTTP/1.1',
      'GET /healthz HTTP/1.1 extra',
      'PRI * HTTP/2.0',
      'GET /healthz HTTP/2.0',
      'GET /healthz HTTP/0.9',
    ),
    fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((text) => text.replace(/[\r\n]/g, '')),
  ),
})

const garbage: fc.Arbitrary<RequestShape> = fc.record({
  _tag: fc.constant('Garbage' as const),
  bytes: fc.oneof(
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    fc.constantFrom('garbage\r\n\r\n', '\r\n\r\n\r\n', '\u0016\u0003\u0001\u0000\u00a5\u0001'),
  ),
})

const oversizedHeaders: fc.Arbitrary<RequestShape> = fc.record({
  _tag: fc.constant('OversizedHeaders' as const),
  bytes: fc.integer({ min: NODE_HEADER_LIMIT_BYTES + 1, max: 24 * 1024 }),
  asOneField: fc.boolean(),
})

const sound = fc.oneof(get, createPlant)

/** Any request of the model, sound ones the likelier. */
export const requestShape: fc.Arbitrary<RequestShape> = fc.oneof(
  { arbitrary: sound, weight: 4 },
  { arbitrary: badRequestLine, weight: 1 },
  { arbitrary: garbage, weight: 1 },
  { arbitrary: oversizedHeaders, weight: 1 },
  { arbitrary: fc.constant<RequestShape>({ _tag: 'NoHost' }), weight: 1 },
  {
    arbitrary: fc.tuple(sound, fc.nat()).map(([of, keep]): RequestShape => ({ _tag: 'Cut', of, keep })),
    weight: 1,
  },
)
