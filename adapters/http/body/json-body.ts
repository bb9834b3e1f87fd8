import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type Koa from 'koa'
import type { Clock } from '../../../core/index.js'
import { systemClock } from '../../../wire/index.js'
import type { ServedRequest } from '../context/request-context.js'
import type { RequestHead } from '../context/request-head.js'
import { exactJsonParser, type JsonLimits } from '../../../wire/exact-json/index.js'
import { readRequestBytes } from './request-bytes.js'
import type { DecodeQueue } from './decode-queue.js'
import { deadlinePassed, malformedBody, unexpectedFailure, unsupportedMediaType, type RequestProblem } from '../errors/problems.js'

const JSON_TYPES = ['application/json', 'application/*+json']

/** What the reader asks of Koa's request: the media type's charset and match, as Koa reads them. */
export type BodyRequest = Pick<Koa.Request, 'req' | 'charset' | 'is'>

/**
 * Reads a JSON request body within a size limit, a coded one decoded in its turn of `decodes`, and
 * parses it with exact integers, within the JSON limits, every stage by `deadline` (on `clock.now()`'s
 * scale; none when absent): a body not in by then is not parsed. The result
 * is untrusted input, for a codec to parse further. `served` is what the server that admitted the
 * request knows of it: a body it cut is answered as it answered it.
 */
export const makeJsonBodyReader = (limitBytes: number, jsonLimits: JsonLimits, decodes: DecodeQueue, clock: Clock = systemClock) => {
  // The limits are checked once, as the app is built, not on every request.
  const parseJson = exactJsonParser(jsonLimits)
  return (
    request: BodyRequest,
    head: Pick<RequestHead, 'contentTypeLines'>,
    served: ServedRequest | undefined,
    deadline = Infinity,
  ): TE.TaskEither<RequestProblem, unknown> =>
    async () => {
      // The field is read once, here, for every check below.
      const contentType = request.req.headers['content-type']
      const refusal = contentTypeProblem(request, contentType, head)
      if (refusal !== undefined) return E.left(refusal)
      const bytes = hasReadableBody(request, contentType) ? await readBytes(request, limitBytes, decodes, served, deadline, clock) : E.right(new Uint8Array())
      if (E.isLeft(bytes)) return bytes
      if (clock.now() >= deadline) return E.left(deadlinePassed)
      const parsed = parseJson(bytes.right)
      return E.isLeft(parsed) ? E.left(malformedBody(parsed.left)) : parsed
    }
}

// The header nearly every client sends, whose answers below are known without parsing it.
const PLAIN_JSON = 'application/json'

const contentTypeProblem = (request: BodyRequest, contentType: string | undefined, head: Pick<RequestHead, 'contentTypeLines'>): RequestProblem | undefined => {
  // Node keeps the first of several Content-Type lines silently; a proxy or a filter in front
  // may have read another, and judged the body by it.
  if (head.contentTypeLines > 1) return unsupportedMediaType('Send one Content-Type header, application/json.')
  if (contentType === PLAIN_JSON) return undefined
  if ((contentType ?? '').length > MAX_CONTENT_TYPE_LENGTH) return unsupportedMediaType('Send the request body as application/json.')
  if (!isJsonMediaType(mediaTypeOf(contentType ?? ''))) {
    return unsupportedMediaType('Send the request body as application/json.')
  }
  // RFC 8259 section 8.1: JSON exchanged between systems is UTF-8; no other charset is read.
  const charset = request.charset.toLowerCase()
  return charset === '' || charset === 'utf-8' || charset === 'utf8'
    ? undefined
    : unsupportedMediaType('Send the request body as application/json in UTF-8.')
}

// No media type this reader takes comes near it, parameters included; a longer field is refused
// before Koa's parsers, which read it whole, are given it.
const MAX_CONTENT_TYPE_LENGTH = 256

// Media types are case-insensitive (RFC 9110 section 8.3.1); Koa's `request.type` is neither
// lower-cased nor trimmed, so the header is read here.
const mediaTypeOf = (contentType: string): string => (contentType.split(';')[0] ?? '').trim().toLowerCase()

const isJsonMediaType = (type: string): boolean =>
  type === 'application/json' || /^application\/[^/]+\+json$/.test(type)

// A request announcing no body (neither Transfer-Encoding nor a Content-Length), or whose
// Content-Type does not parse as a media type, is read as zero bytes without touching its stream:
// its JSON parse then fails as an empty text does.
const hasReadableBody = (request: BodyRequest, contentType: string | undefined): boolean => {
  const { headers } = request.req
  if (contentType === PLAIN_JSON) {
    return headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(headers['content-length']))
  }
  return Boolean(request.is(JSON_TYPES))
}

const readBytes = async (
  request: BodyRequest,
  limitBytes: number,
  decodes: DecodeQueue,
  served: ServedRequest | undefined,
  deadline: number,
  clock: Clock,
): Promise<E.Either<RequestProblem, Uint8Array>> => {
  try {
    return await readRequestBytes(request.req, limitBytes, decodes, () => served?.connection.answered, deadline, clock)
  } catch (error) {
    return E.left(unexpectedFailure(error))
  }
}
