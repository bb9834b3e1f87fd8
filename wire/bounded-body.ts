import * as E from 'fp-ts/lib/Either.js'

/**
 * A fetch answer's body, at most `limit` bytes of it (decoded, as fetch hands them over: a
 * compressed body counts by what it inflates to). A declared length over the limit is refused
 * before a byte is read; a body that grows past it is cancelled there. The Left is the limit it
 * passed. Whoever reads an answer from a server that may not be the one it expects (a client of
 * this API, the key set's fetch) reads it so: a server, or whoever answers in its place, cannot
 * make the reader hold more than it allows.
 */
export const readBoundedBody = async (response: Response, limit: number): Promise<E.Either<number, Uint8Array>> => {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  const { body } = response
  if (declared > limit) {
    await body?.cancel().catch(() => {})
    return E.left(limit)
  }
  if (body === null) return E.right(new Uint8Array())
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      return E.left(limit)
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return E.right(bytes)
}
