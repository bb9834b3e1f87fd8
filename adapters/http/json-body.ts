import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import type Koa from 'koa'
import bodyParser from 'koa-bodyparser'
import { problemAnsweredOn } from './client-error.js'
import { parseExactJson, type JsonLimits } from './exact-json.js'
import {
  malformedBody,
  payloadTooLarge,
  unexpectedFailure,
  unsupportedMediaType,
  type RequestProblem,
} from './request-problems.js'

const JSON_TYPES = ['application/json', 'application/*+json']

/**
 * Reads a JSON request body within a size limit and parses it with exact integers, within the
 * JSON limits. The result is untrusted input, for a codec to parse further.
 */
export const makeJsonBodyReader = (limitBytes: number, jsonLimits: JsonLimits) => {
  const readBytes = makeByteReader(limitBytes)
  return (ctx: Koa.Context): TE.TaskEither<RequestProblem, unknown> =>
    pipe(
      TE.fromEither(requireJsonContentType(ctx)),
      TE.flatMap(() => readBytes(ctx)),
      TE.flatMapEither((bytes) => pipe(parseExactJson(bytes, jsonLimits), E.mapLeft(malformedBody))),
    )
}

const requireJsonContentType = (ctx: Koa.Context): E.Either<RequestProblem, void> => {
  if (!isJsonMediaType(mediaTypeOf(ctx.get('Content-Type')))) {
    return E.left(unsupportedMediaType('Send the request body as application/json.'))
  }
  // RFC 8259 section 8.1: JSON exchanged between systems is UTF-8; no other charset is read.
  const charset = ctx.request.charset.toLowerCase()
  return charset === '' || charset === 'utf-8' || charset === 'utf8'
    ? E.right(undefined)
    : E.left(unsupportedMediaType('Send the request body as application/json in UTF-8.'))
}

// Media types are case-insensitive (RFC 9110 section 8.3.1); Koa's `request.type` is neither
// lower-cased nor trimmed, so the header is read here.
const mediaTypeOf = (contentType: string): string => (contentType.split(';')[0] ?? '').trim().toLowerCase()

const isJsonMediaType = (type: string): boolean =>
  type === 'application/json' || /^application\/[^/]+\+json$/.test(type)

// koa-bodyparser reads the stream, honours Content-Length and Content-Encoding, and enforces the
// limit. It is asked for raw bytes ("text" with no encoding) because its JSON mode would decode
// bad UTF-8 into U+FFFD and parse numbers as doubles, both of which the contract forbids.
const makeByteReader = (limitBytes: number) => {
  const options = {
    enableTypes: ['text'],
    extendTypes: { text: JSON_TYPES },
    textLimit: String(limitBytes),
    encoding: false,
  }
  const parse = bodyParser(options)
  return (ctx: Koa.Context): TE.TaskEither<RequestProblem, Uint8Array> =>
    TE.tryCatch(
      async () => {
        normaliseContentCoding(ctx)
        await parse(ctx, async () => {})
        const body: unknown = ctx.request.body
        // A request without any body leaves koa-bodyparser's placeholder `{}`: zero bytes.
        return body instanceof Uint8Array ? body : new Uint8Array()
      },
      (error) => classifyReadError(error, limitBytes, ctx),
    )
}

// Content codings are case-insensitive (RFC 9110 section 8.4.1), but koa-bodyparser matches
// 'gzip', 'deflate' and 'br' exactly: it is given the header in lower case.
const normaliseContentCoding = (ctx: Koa.Context): void => {
  const coding = ctx.req.headers['content-encoding']
  if (coding !== undefined) ctx.req.headers['content-encoding'] = coding.trim().toLowerCase()
}

const classifyReadError = (error: unknown, limitBytes: number, ctx: Koa.Context): RequestProblem => {
  const { status, type } = (error ?? {}) as { status?: unknown; type?: unknown }
  if (status === 413) return payloadTooLarge(limitBytes)
  if (type === 'encoding.unsupported' || status === 415) {
    return unsupportedMediaType('The Content-Encoding of the request body is not supported.')
  }
  // A body cut by the server's own request timeout was answered 408 on the socket: say so.
  const answered = type === 'request.aborted' ? problemAnsweredOn(ctx.req.socket) : undefined
  if (answered !== undefined) return answered
  if (type === 'request.aborted' || type === 'request.size.invalid') {
    return malformedBody('the request body ended before its declared length')
  }
  if (isDecompressionError(error)) {
    return malformedBody('the request body does not decompress as its Content-Encoding says')
  }
  return unexpectedFailure(error)
}

// zlib reports bad gzip/deflate data as Z_* codes and bad brotli data as ERR__ERROR_FORMAT_*.
const isDecompressionError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_FORMAT'))
}
