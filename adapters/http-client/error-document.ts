import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'

/**
 * The API's Error document, `{"error": <status>, "message": <what to fix>}`, read by the client.
 * The HTTP adapter writes it; adapters never import each other, so the client reads it with this
 * codec of its own, as any client of the API would.
 */
const ErrorDocumentCodec = t.type({ error: t.number, message: t.string }, 'ErrorDocument')

export interface ErrorDocument {
  readonly error: number
  readonly message: string
}

/** The Error document in a parsed body, when it is one and names the status it came with. */
export const readErrorDocument = (body: unknown, status: number): E.Either<string, ErrorDocument> => {
  const decoded = ErrorDocumentCodec.decode(body)
  if (E.isLeft(decoded)) return E.left('the body is not an Error document {"error", "message"}')
  if (decoded.right.error !== status) {
    return E.left(`the Error document says ${decoded.right.error} but the status is ${status}`)
  }
  return E.right({ error: decoded.right.error, message: decoded.right.message })
}
