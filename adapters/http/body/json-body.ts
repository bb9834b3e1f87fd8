import type { IncomingMessage } from 'node:http'
import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Clock } from '../../../core/index.js'
import { systemClock } from '../../../wire/index.js'
import type { ServedRequest } from '../context/request-context.js'
import type { RequestHead } from '../context/request-head.js'
import { exactJsonParser, type JsonLimits } from '../../../wire/exact-json/index.js'
import { parseMediaType } from './media-type.js'
import { readRequestBytes } from './request-bytes.js'
import type { DecodeQueue } from './decode-queue.js'
import { deadlinePassed, malformedBody, unexpectedFailure, unsupportedMediaType, type RequestProblem } from '../errors/problems.js'

/** What the reader reads of a request's head: what its body says it is, and how it is framed and coded. */
export type BodyHead = Pick<RequestHead, 'contentTypeLines' | 'contentType' | 'contentEncoding' | 'contentLength' | 'transferEncoding'>

/**
 * Reads a JSON request body within a size limit, a coded one decoded in its turn of `decodes`, and
 * parses it with exact integers, within the JSON limits, every stage by `deadline` (on `clock.now()`'s
 * scale; none when absent): a body not in by then is not parsed. The body is `req`'s stream, read
 * as its `head` (read once, when the request was admitted) describes it. The result
 * is untrusted input, for a codec to parse further. `served` is what the server that admitted the
 * request knows of it: a body it cut is answered as it answered it.
 */
export const makeJsonBodyReader = (limitBytes: number, jsonLimits: JsonLimits, decodes: DecodeQueue, clock: Clock = systemClock) => {
  // The limits are checked once, as the app is built, not on every request.
  const parseJson = exactJsonParser(jsonLimits)
  return (req: IncomingMessage, head: BodyHead, served: ServedRequest | undefined, deadline = Infinity): TE.TaskEither<RequestProblem, unknown> =>
    async () => {
      const refusal = contentTypeProblem(head)
      if (refusal !== undefined) return E.left(refusal)
      const bytes = announcesBody(head) ? await readBytes(req, head, limitBytes, decodes, served, deadline, clock) : E.right(new Uint8Array())
      if (E.isLeft(bytes)) return bytes
      if (clock.now() >= deadline) return E.left(deadlinePassed)
      const parsed = parseJson(bytes.right)
      return E.isLeft(parsed) ? E.left(malformedBody(parsed.left)) : parsed
    }
}

// The header nearly every client sends, whose answers below are known without parsing it.
const PLAIN_JSON = 'application/json'

const notJson = unsupportedMediaType('Send the request body as application/json.')

/**
 * A body is read as JSON when its request has one Content-Type line, of at most
 * MAX_CONTENT_TYPE_LENGTH characters, that is a media type (media-type.ts) of type
 * `application/json` or `application/<name>+json` whose parameters name `charset` at most once,
 * as UTF-8; every other request is answered 415 before its body is read.
 */
const contentTypeProblem = ({ contentTypeLines, contentType }: BodyHead): RequestProblem | undefined => {
  // Node keeps the first of several Content-Type lines silently; a proxy or a filter in front
  // may have read another, and judged the body by it.
  if (contentTypeLines > 1) return unsupportedMediaType('Send one Content-Type header, application/json.')
  if (contentType === PLAIN_JSON) return undefined
  if (contentType === undefined || contentType.length > MAX_CONTENT_TYPE_LENGTH) return notJson
  const mediaType = parseMediaType(contentType)
  if (mediaType === undefined || !isJsonMediaType(mediaType.type)) return notJson
  // RFC 8259 section 8.1: JSON exchanged between systems is UTF-8; no other charset is read. Named
  // twice, it is as ambiguous as two Content-Type lines: a reader in front may take the other.
  const charsets = mediaType.parameters.filter(([name]) => name === 'charset')
  if (charsets.length > 1) return unsupportedMediaType('Send one charset parameter, utf-8.')
  const charset = charsets[0]?.[1].toLowerCase()
  return charset === undefined || charset === 'utf-8' || charset === 'utf8'
    ? undefined
    : unsupportedMediaType('Send the request body as application/json in UTF-8.')
}

// No media type this reader takes comes near it, parameters included; a longer field is refused
// before it is parsed.
const MAX_CONTENT_TYPE_LENGTH = 256

const isJsonMediaType = (type: string): boolean =>
  type === 'application/json' || /^application\/[^/]+\+json$/.test(type)

// A request announcing no body (neither Transfer-Encoding nor a Content-Length) is read as zero
// bytes without touching its stream: its JSON parse then fails as an empty text does.
const announcesBody = ({ transferEncoding, contentLength }: BodyHead): boolean =>
  transferEncoding !== undefined || !Number.isNaN(Number(contentLength))

const readBytes = async (
  req: IncomingMessage,
  head: BodyHead,
  limitBytes: number,
  decodes: DecodeQueue,
  served: ServedRequest | undefined,
  deadline: number,
  clock: Clock,
): Promise<E.Either<RequestProblem, Uint8Array>> => {
  try {
    return await readRequestBytes(req, head, limitBytes, decodes, () => served?.connection.answered, deadline, clock)
  } catch (error) {
    return E.left(unexpectedFailure(error))
  }
}
