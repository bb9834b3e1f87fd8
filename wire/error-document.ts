import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'

/**
 * The statuses the service answers with an Error document, the one list the type, the set and the
 * typed client's reading follow from. Each is a literal, so the `error` field of the document is
 * an int32 by construction, and a new status is a deliberate change here that the client does not
 * compile without reading.
 */
export const ERROR_STATUS_LIST = [400, 401, 403, 404, 405, 408, 409, 413, 415, 417, 431, 500, 501, 503, 507] as const

export type ErrorStatus = (typeof ERROR_STATUS_LIST)[number]

/** Every status of `ErrorStatus`, for readers that must tell the API's answers from others. */
export const ERROR_STATUSES: ReadonlySet<number> = new Set<number>(ERROR_STATUS_LIST)

/** The Error document of the API: `error` is the HTTP status, `message` tells a person what to fix. */
export interface ErrorDocument {
  readonly error: ErrorStatus
  readonly message: string
}

const isErrorStatus = (value: unknown): value is ErrorStatus => typeof value === 'number' && ERROR_STATUSES.has(value)

/** The `error` field of the Error document: one of `ERROR_STATUS_LIST`. */
export const ErrorStatusCodec = new t.Type<ErrorStatus, number, unknown>(
  'ErrorStatus',
  isErrorStatus,
  (input, context) => (isErrorStatus(input) ? t.success(input) : t.failure(input, context)),
  (status) => status,
)

/** The Error document as it crosses the wire. */
export const ErrorDocumentCodec: t.Type<ErrorDocument, { error: number; message: string }> = t.readonly(
  t.type({ error: ErrorStatusCodec, message: t.string }),
  'ErrorDocument',
)

/** The Error document in a parsed body, when it is one and names the status it came with. */
export const readErrorDocument = (body: unknown, status: number): E.Either<string, ErrorDocument> => {
  const decoded = ErrorDocumentCodec.decode(body)
  if (E.isLeft(decoded)) return E.left('the body is not an Error document {"error", "message"} of this API')
  if (decoded.right.error !== status) {
    return E.left(`the Error document says ${decoded.right.error} but the status is ${status}`)
  }
  return E.right(decoded.right)
}

/** The Error document for a status and a message, serialised as the API sends it. */
export const errorDocument = (error: ErrorStatus, message: string): ErrorDocument => ({ error, message })

/** The media type of every JSON answer of the API, Error documents included. */
export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8'

/**
 * An Error answer as it goes on the wire, whoever writes it (a Koa response, a bare Node
 * response, a raw socket): the status, the headers the status calls for (`WWW-Authenticate`,
 * `Allow`, `Retry-After`), every header to send (`Content-Type` and `Content-Length` first), the
 * document and its JSON text.
 */
export interface ErrorAnswer {
  readonly status: ErrorStatus
  readonly headers: Readonly<Record<string, string>>
  readonly wireHeaders: Readonly<Record<string, string>>
  readonly body: ErrorDocument
  readonly text: string
}

/** The one writer of the Error answer: every listener of the service answers an error through it. */
export const errorAnswer = (status: ErrorStatus, message: string, headers: Readonly<Record<string, string>> = {}): ErrorAnswer => {
  const body = errorDocument(status, message)
  const text = JSON.stringify(body)
  const length = String(new TextEncoder().encode(text).length)
  return { status, headers, wireHeaders: { 'Content-Type': JSON_MEDIA_TYPE, 'Content-Length': length, ...headers }, body, text }
}
