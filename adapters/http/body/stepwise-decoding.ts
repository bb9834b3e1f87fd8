import { createBrotliDecompress, createUnzip, type BrotliDecompress, type Unzip } from 'node:zlib'
import * as E from 'fp-ts/lib/Either.js'
import { malformedBody, payloadTooLarge, unexpectedFailure, type RequestProblem } from '../errors/problems.js'
import type { Decoding } from './decode-queue.js'

/** The content codings a body may be sent in, besides identity. */
export type ContentCoding = 'gzip' | 'deflate' | 'br'

// Output of one step: a fraction of a millisecond of inflating, so that another client's small
// body waits little for it, and few enough steps for a body at the limit.
const STEP_BYTES = 64 * 1024

/**
 * The decode of a whole coded body, a step at a time, each step on libuv's pool and no longer
 * than `STEP_BYTES` of output (the stream stops when its output is not read). Its output may not
 * pass `limitBytes`: a bomb is 413 without being expanded past it. Abandoned, the decoder is
 * destroyed at once, its window let go.
 */
export const stepwiseDecoding = (
  coding: ContentCoding,
  coded: Buffer,
  limitBytes: number,
): Decoding<E.Either<RequestProblem, Uint8Array>> => {
  // Unzip reads both gzip and zlib-wrapped deflate, whichever of the two names was sent.
  const decoder: Unzip | BrotliDecompress = coding === 'br' ? createBrotliDecompress() : createUnzip()
  decoder.on('error', () => {})
  decoder.end(coded)
  const chunks: Buffer[] = []
  let size = 0
  return {
    step: () =>
      new Promise((resolve) => {
        let produced = 0
        const done = (outcome: E.Either<RequestProblem, Uint8Array> | undefined): void => {
          decoder.pause()
          decoder.off('data', onData)
          decoder.off('end', onEnd)
          decoder.off('error', onError)
          decoder.off('close', onClose)
          if (outcome !== undefined && E.isLeft(outcome)) decoder.destroy()
          resolve(outcome)
        }
        const onData = (chunk: Buffer): void => {
          size += chunk.length
          if (size > limitBytes) return done(E.left(payloadTooLarge(limitBytes)))
          chunks.push(chunk)
          produced += chunk.length
          if (produced >= STEP_BYTES) done(undefined)
        }
        // The body must be the coded stream and nothing else, whatever the coding: zlib stops quietly
        // at the end of a deflate or brotli stream, and after a gzip member skips zero bytes, so bytes
        // after the end would otherwise be refused or ignored depending on the coding and on what
        // they are. What the engine took of the input tells.
        const onEnd = (): void =>
          done(decoder.bytesWritten !== coded.length ? E.left(undecodable) : E.right(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)))
        const onError = (error: unknown): void => done(E.left(isDecompressionError(error) ? undecodable : unexpectedFailure(error)))
        const onClose = (): void => done(E.left(unexpectedFailure(new Error('the decoder closed before the body ended'))))
        decoder.on('data', onData)
        decoder.once('end', onEnd)
        decoder.once('error', onError)
        decoder.once('close', onClose)
        decoder.resume()
      }),
    abandon: () => {
      chunks.length = 0
      decoder.destroy()
    },
  }
}

const undecodable = malformedBody('the request body does not decompress as its Content-Encoding says')

// zlib reports bad gzip/deflate data as Z_* codes and bad brotli data as ERR__ERROR_FORMAT_*, or,
// for a body that stops short, as an unexpected end of input.
const isDecompressionError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR_FORMAT'))
}
