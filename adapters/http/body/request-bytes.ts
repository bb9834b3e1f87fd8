import type { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createUnzip } from 'node:zlib'
import * as E from 'fp-ts/lib/Either.js'
import { problemAnsweredOn } from '../server/parser-refusals.js'
import { malformedBody, payloadTooLarge, unexpectedFailure, unsupportedMediaType, type RequestProblem } from '../errors/problems.js'

/**
 * Reads a request's body as bytes, decoded from its Content-Encoding (gzip, deflate, br, or
 * identity, named in any case), and no larger than `limitBytes` once decoded. A declared
 * Content-Length over the limit, and a coding this reader cannot decode, are refused before a
 * byte is read, so a client waiting on `Expect: 100-continue` is never invited to send it. This
 * is what koa-bodyparser did for the service, with the same outcomes, without its per-request
 * option copies, media type matching and string decoding it was told to skip.
 */
export const readRequestBytes = (req: IncomingMessage, limitBytes: number): Promise<E.Either<RequestProblem, Uint8Array>> => {
  // Content codings are case-insensitive (RFC 9110 section 8.4.1).
  const coding = req.headers['content-encoding']?.trim().toLowerCase() || 'identity'
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
  if (req.destroyed || req.readableAborted) return Promise.resolve(E.left(problemAnsweredOn(req.socket) ?? truncated))
  const stream = decodedStream(req, coding)
  if (stream === undefined) {
    return Promise.resolve(E.left(unsupportedMediaType('The Content-Encoding of the request body is not supported.')))
  }
  if (!stream.readable) return Promise.resolve(E.left(unexpectedFailure(new Error('the request body is not readable'))))
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let received = 0
    const finish = (outcome: E.Either<RequestProblem, Uint8Array>): void => {
      stream.off('data', onData)
      stream.off('end', onEnd)
      stream.off('error', onError)
      stream.off('close', cleanUp)
      req.off('aborted', onAborted)
      req.off('data', onCodedData)
      // Left in the stream, the rest of a refused body is not read: the connection closes instead.
      if (E.isLeft(outcome)) stream.pause()
      // A decoder left behind may still meet bad data in what was already written to it; its
      // error has no one to tell, and unheard it would end the process.
      if (stream !== req) stream.on('error', ignore)
      resolve(outcome)
    }
    let coded = 0
    const onCodedData = (chunk: Buffer): void => {
      coded += chunk.length
      if (coded > codedLimit) finish(E.left(payloadTooLarge(limitBytes)))
    }
    const onData = (chunk: Buffer): void => {
      received += chunk.length
      if (received > limitBytes) finish(E.left(payloadTooLarge(limitBytes)))
      else chunks.push(chunk)
    }
    const onEnd = (): void => {
      if (length !== undefined && received !== length) finish(E.left(truncated))
      else finish(E.right(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)))
    }
    const onError = (error: unknown): void => finish(E.left(isDecompressionError(error) ? undecodable : unexpectedFailure(error)))
    // A body cut by the server's own request timeout was answered 408 on the socket: say so.
    const onAborted = (): void => finish(E.left(problemAnsweredOn(req.socket) ?? truncated))
    // A stream closed without an end or an error has nothing more to say; the answer waits for
    // 'aborted', which a request always emits when its body is cut.
    const cleanUp = (): void => {
      stream.off('data', onData)
      stream.off('end', onEnd)
      stream.off('error', onError)
      stream.off('close', cleanUp)
    }
    req.on('aborted', onAborted)
    if (stream !== req) req.on('data', onCodedData)
    stream.on('close', cleanUp)
    stream.on('end', onEnd)
    stream.on('error', onError)
    // Last: listening for data starts the flow, which is what invites a body held back by
    // `Expect: 100-continue` (see createHttpServer).
    stream.on('data', onData)
  })
}

const ignore = (): void => {}

// What gzip, deflate or br may add to data that does not compress (headers, block framing).
const CODING_OVERHEAD_BYTES = 1024

const truncated = malformedBody('the request body ended before its declared length')
const undecodable = malformedBody('the request body does not decompress as its Content-Encoding says')

// Unzip reads both gzip and zlib-wrapped deflate, whichever of the two names was sent.
const decodedStream = (req: IncomingMessage, coding: string): Readable | undefined => {
  switch (coding) {
    case 'identity':
      return req
    case 'gzip':
    case 'deflate':
      return req.pipe(createUnzip())
    case 'br':
      return req.pipe(createBrotliDecompress())
    default:
      return undefined
  }
}

// zlib reports bad gzip/deflate data as Z_* codes and bad brotli data as ERR__ERROR_FORMAT_*.
const isDecompressionError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_FORMAT'))
}
