import type { IncomingMessage } from 'node:http'
import type { Clock } from '../../../core/index.js'
import { systemClock } from '../../../wire/index.js'
import * as E from 'fp-ts/lib/Either.js'
import { deadlinePassed, decodersBusy, malformedBody, payloadTooLarge, unexpectedFailure, unsupportedMediaType, type RequestProblem } from '../errors/problems.js'
import { soleListMember } from '../context/list-members.js'
import type { DecodeQueue } from './decode-queue.js'
import type { RequestHead } from '../context/request-head.js'
import { clientOf } from '../context/client-networks.js'
import { stepwiseDecoding, type ContentCoding } from './stepwise-decoding.js'

/**
 * Reads a request's body from its stream as bytes, decoded from the Content-Encoding its `head`
 * names (gzip, deflate, br, or identity, in any case), and no larger than `limitBytes` once
 * decoded. A coded body is
 * read whole (its coded bytes bounded too) before it is decoded, a step at a time with a bound on
 * the output, in the turns of its client in `decodes`: a decoder holds its window (16 MiB for
 * brotli) only while it decodes, never while a client stalls. A body still arriving, or still
 * waiting for its decode or being decoded, at `deadline` (on `clock.now()`'s scale) is
 * given up then: 503, whatever its client is doing. A declared
 * Content-Length over the limit, and a coding this reader cannot decode, are refused before a
 * byte is read, so a client waiting on `Expect: 100-continue` is never invited to send it (why
 * the service reads bodies itself: docs/contributing.md, the request body reader). `serverAnswered`
 * names what the server answered by itself on the connection (a 408 for a body too slow), which
 * is the outcome of a body it cut.
 */
export const readRequestBytes = (
  req: IncomingMessage,
  head: Pick<RequestHead, 'contentEncoding' | 'contentLength'>,
  limitBytes: number,
  decodes: DecodeQueue,
  serverAnswered: () => RequestProblem | undefined = () => undefined,
  deadline = Infinity,
  clock: Clock = systemClock,
): Promise<E.Either<RequestProblem, Uint8Array>> => {
  const coding = contentCodingOf(head.contentEncoding)
  const declared = head.contentLength
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
  const decoded = coding === 'identity' ? undefined : supportedCodingOf(coding)
  if (coding !== 'identity' && decoded === undefined) {
    return Promise.resolve(E.left(unsupportedCoding))
  }
  if (!req.readable) return Promise.resolve(E.left(unexpectedFailure(new Error('the request body is not readable'))))
  if (decoded === undefined) return readBytes(req, limitBytes, limitBytes, length, serverAnswered, deadline, clock)
  const client = clientOf(req.socket).key
  return readBytes(req, codedLimit, limitBytes, undefined, serverAnswered, deadline, clock).then((coded) =>
    E.isLeft(coded)
      ? coded
      : decodes.decode(client, () => stepwiseDecoding(decoded, coded.right, limitBytes), deadline, E.left<RequestProblem, Uint8Array>(decodersBusy)),
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
  deadline: number,
  clock: Clock,
): Promise<E.Either<RequestProblem, Buffer>> => {
  // A small body usually came in the packets of its headers, and waits whole in the stream's
  // buffer by the time the route asks for it: taken at once, it costs no listeners, no flowing
  // stream and no turn of the loop. Its declared length, already held to the limit, says it is all
  // there, and is what is asked for: `read()` without a size may give only the first buffered
  // chunk (Node 26 does). Any other body is read as it arrives.
  if (length !== undefined && req.readableFlowing !== true && req.readableLength === length) {
    return Promise.resolve(E.right(length === 0 ? Buffer.alloc(0) : (req.read(length) as Buffer)))
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let received = 0
    const cancelLate = Number.isFinite(deadline) ? clock.setTimer(deadline - clock.now(), () => finish(E.left(deadlinePassed))) : undefined
    const finish = (outcome: E.Either<RequestProblem, Buffer>): void => {
      cancelLate?.()
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
}

const SUPPORTED_CODINGS: ReadonlyArray<ContentCoding> = ['gzip', 'deflate', 'br']

const supportedCodingOf = (coding: string): ContentCoding | undefined => SUPPORTED_CODINGS.find((supported) => supported === coding)

// Named in the answer, so a client learns what to send instead; the coding it sent is not repeated.
const unsupportedCoding = unsupportedMediaType(
  `The Content-Encoding of the request body is not supported: send it uncompressed or coded with one of ${SUPPORTED_CODINGS.join(', ')}.`,
)

// What gzip, deflate or br may add to data that does not compress (headers, block framing).
const CODING_OVERHEAD_BYTES = 1024

const truncated = malformedBody('the request body ended before its declared length')
