import type { IncomingMessage } from 'node:http'
import { brotliDecompress, unzip, type InputType, type ZlibOptions } from 'node:zlib'
import * as E from 'fp-ts/lib/Either.js'
import { decodersBusy, malformedBody, payloadTooLarge, unexpectedFailure, unsupportedMediaType, type RequestProblem } from '../errors/problems.js'
import { soleListMember } from '../context/list-members.js'
import type { DecodeQueue } from './decode-queue.js'

/**
 * Reads a request's body as bytes, decoded from its Content-Encoding (gzip, deflate, br, or
 * identity, named in any case), and no larger than `limitBytes` once decoded. A coded body is
 * read whole (its coded bytes bounded too) before it is decoded, in one call with a bound on the
 * output, in its turn of `decodes`: a decoder holds its window (16 MiB for brotli) only while it
 * decodes, never while a client stalls. A declared
 * Content-Length over the limit, and a coding this reader cannot decode, are refused before a
 * byte is read, so a client waiting on `Expect: 100-continue` is never invited to send it. This
 * is what koa-bodyparser did for the service, with the same outcomes, without its per-request
 * option copies, media type matching and string decoding it was told to skip. `serverAnswered`
 * names what the server answered by itself on the connection (a 408 for a body too slow), which
 * is the outcome of a body it cut.
 */
export const readRequestBytes = (
  req: IncomingMessage,
  limitBytes: number,
  decodes: DecodeQueue,
  serverAnswered: () => RequestProblem | undefined = () => undefined,
): Promise<E.Either<RequestProblem, Uint8Array>> => {
  const coding = contentCodingOf(req.headers['content-encoding'])
  const declared = req.headers['content-length']
  // The declared length counts the coded bytes: it is held to the limit, and checked against
  // what arrives, only when nothing is coded.
  const length = coding === 'identity' && declared ? Number.parseInt(declared, 10) : undefined
  if (length !== undefined && length > limitBytes) return Promise.resolve(E.left(payloadTooLarge(limitBytes)))
  // The coded bytes are bounded too: a stream of empty deflate blocks decodes to nothing, and
  // counted only once decoded it would be read for as long as the client cares to send it. No
  // coding makes data within the limit larger than this once coded.
  const codedLimit = limitBytes + CODING_OVERHEAD_BYTES
  if (coding !== 'identity' && declared && Number.parseInt(declared, 10) > codedLimit) {
    return Promise.resolve(E.left(payloadTooLarge(limitBytes)))
  }
  // The client may have gone (or the request timeout cut it) while the request waited for its
  // authentication: its 'aborted' is past, so no listener would hear it.
  if (req.destroyed || req.readableAborted) return Promise.resolve(E.left(serverAnswered() ?? truncated))
  const decode = coding === 'identity' ? undefined : decoderOf(coding)
  if (coding !== 'identity' && decode === undefined) {
    return Promise.resolve(E.left(unsupportedMediaType('The Content-Encoding of the request body is not supported.')))
  }
  if (!req.readable) return Promise.resolve(E.left(unexpectedFailure(new Error('the request body is not readable'))))
  if (decode === undefined) return readBytes(req, limitBytes, limitBytes, length, serverAnswered)
  return readBytes(req, codedLimit, limitBytes, undefined, serverAnswered).then((coded) =>
    E.isLeft(coded) ? coded : decodes.decode(req.socket, () => decodeWithin(decode, coded.right, limitBytes), E.left(decodersBusy)),
  )
}

// Content codings are case-insensitive (RFC 9110 section 8.4.1). A list of several, which would
// have to be undone in turn, or one too long to be read whole, is answered as a coding this
// reader does not know.
const contentCodingOf = (field: string | undefined): string => {
  const sole = soleListMember(field ?? '')
  return sole === undefined ? SEVERAL_CODINGS : sole === '' ? 'identity' : sole.toLowerCase()
}

// No coding's name holds a comma.
const SEVERAL_CODINGS = ','

// The bytes of the body as they arrive, at most `limit` of them (past it: 413 naming
// `limitBytes`, the limit the client knows), and exactly `length` when one was declared.
const readBytes = (
  req: IncomingMessage,
  limit: number,
  limitBytes: number,
  length: number | undefined,
  serverAnswered: () => RequestProblem | undefined,
): Promise<E.Either<RequestProblem, Buffer>> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = []
    let received = 0
    const finish = (outcome: E.Either<RequestProblem, Buffer>): void => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('aborted', onAborted)
      // Left in the stream, the rest of a refused body is not read: the connection closes instead.
      if (E.isLeft(outcome)) req.pause()
      resolve(outcome)
    }
    const onData = (chunk: Buffer): void => {
      received += chunk.length
      if (received > limit) finish(E.left(payloadTooLarge(limitBytes)))
      else chunks.push(chunk)
    }
    const onEnd = (): void => {
      if (length !== undefined && received !== length) finish(E.left(truncated))
      else finish(E.right(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)))
    }
    const onError = (error: unknown): void => finish(E.left(unexpectedFailure(error)))
    // A body cut by the server's own request timeout was answered 408 on the socket: say so.
    const onAborted = (): void => finish(E.left(serverAnswered() ?? truncated))
    req.on('aborted', onAborted)
    req.on('end', onEnd)
    req.on('error', onError)
    // Last: listening for data starts the flow, which is what invites a body held back by
    // `Expect: 100-continue` (see createHttpServer).
    req.on('data', onData)
  })

// With `info`, zlib answers the engine too, whose `bytesWritten` counts the input it consumed.
type Decoded = { readonly buffer: Buffer; readonly engine: { readonly bytesWritten: number } }
type Decode = (input: InputType, options: ZlibOptions & { info: true }, callback: (error: Error | null, result: Decoded) => void) => void

// Unzip reads both gzip and zlib-wrapped deflate, whichever of the two names was sent.
const decoderOf = (coding: string): Decode | undefined => {
  switch (coding) {
    case 'gzip':
    case 'deflate':
      return unzip as unknown as Decode
    case 'br':
      return brotliDecompress as unknown as Decode
    default:
      return undefined
  }
}

// One call, off the event loop, whose output may not pass the limit: zlib stops at
// `maxOutputLength` and says so (ERR_BUFFER_TOO_LARGE), so a bomb is never expanded past it.
// The body must be the coded stream and nothing else, whatever the coding: zlib stops quietly at
// the end of a deflate or brotli stream, and after a gzip member skips zero bytes, so bytes after
// the end would otherwise be refused or ignored depending on the coding and on what they are.
const decodeWithin = (decode: Decode, coded: Buffer, limitBytes: number): Promise<E.Either<RequestProblem, Uint8Array>> =>
  new Promise((resolve) => {
    decode(coded, { maxOutputLength: limitBytes + 1, info: true }, (error, decoded) => {
      if (error === null) {
        if (decoded.engine.bytesWritten !== coded.length) resolve(E.left(undecodable))
        else resolve(decoded.buffer.length > limitBytes ? E.left(payloadTooLarge(limitBytes)) : E.right(decoded.buffer))
      } else if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') resolve(E.left(payloadTooLarge(limitBytes)))
      else resolve(E.left(isDecompressionError(error) ? undecodable : unexpectedFailure(error)))
    })
  })

// What gzip, deflate or br may add to data that does not compress (headers, block framing).
const CODING_OVERHEAD_BYTES = 1024

const truncated = malformedBody('the request body ended before its declared length')
const undecodable = malformedBody('the request body does not decompress as its Content-Encoding says')

// zlib reports bad gzip/deflate data as Z_* codes and bad brotli data as ERR__ERROR_FORMAT_*, or,
// for a body that stops short, as an unexpected end of input.
const isDecompressionError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_FORMAT'))
}
