import * as E from 'fp-ts/lib/Either.js'

/**
 * The most an answer's body may hold: the service's answers are a few hundred bytes (a Plant, an
 * Error document), so anything near this is not the API speaking, and is not read whole.
 */
export const MAX_ANSWER_BYTES = 64 * 1024

/**
 * An answer's body as text when it holds at most `limit` bytes (decoded, as fetch hands them
 * over: a compressed body counts by what it inflates to). A declared length over the limit is
 * refused before a byte is read; a body that grows past it is cancelled there. A Left says why.
 */
export const readBoundedText = async (response: Response, limit: number = MAX_ANSWER_BYTES): Promise<E.Either<string, string>> => {
  const tooLarge = `the body is larger than the ${limit} bytes any answer of this API holds`
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  const { body } = response
  if (declared > limit) {
    await body?.cancel().catch(() => {})
    return E.left(tooLarge)
  }
  if (body === null) return E.right('')
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      return E.left(tooLarge)
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return E.right(new TextDecoder().decode(bytes))
}
