// The API's promise for every answer that is not a success: an Error document, wherever HTTP
// allows the answer a body.
import * as E from 'fp-ts/lib/Either.js'
import { readErrorDocument } from '../../../wire/index.js'
import { headerOf, type HttpResponse } from './http-responses.js'

/** Whether HTTP lets an answer with this status carry a body (to a request other than HEAD). */
export const mayHaveBody = (status: number): boolean => status >= 200 && status !== 204 && status !== 304

/**
 * What is wrong with an answer that should be an Error document: undefined for a success, an
 * answer that may have no body, or a well-formed Error document naming its status.
 */
export const errorDocumentProblem = (response: HttpResponse): string | undefined => {
  const { status } = response
  if ((status >= 200 && status < 300) || !mayHaveBody(status)) return undefined
  const contentType = headerOf(response, 'content-type') ?? ''
  if (!/^application\/json\b/i.test(contentType)) return `a ${status} with Content-Type ${JSON.stringify(contentType)}, not an Error document`
  const text = response.body.toString('utf8')
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return `a ${status} whose body is not JSON: ${JSON.stringify(text.slice(0, 80))}`
  }
  const keys = typeof parsed === 'object' && parsed !== null ? Object.keys(parsed).sort().join(',') : ''
  if (keys !== 'error,message') return `a ${status} whose body is not exactly {"error", "message"}: ${JSON.stringify(text.slice(0, 80))}`
  const read = readErrorDocument(parsed, status)
  if (E.isLeft(read)) return `a ${status}: ${read.left}`
  return read.right.message === '' ? `a ${status} with an empty message` : undefined
}

/**
 * What is wrong with a 5xx: a client's bytes, whatever they are, never make the service fail. The
 * 503s it documents say it is busy or stopping, not broken (decoders all taken, a client over its
 * share of connections, the drain), and each says when to come back (`Retry-After`); a 501 says
 * the request asks for what no server here implements (a method like BREW, a transfer coding
 * before chunked, CONNECT), as RFC 9110 and 9112 answer it; any other 5xx is a fault.
 */
export const serverFaultProblem = (response: HttpResponse): string | undefined => {
  const { status } = response
  if (status < 500 || status === 501) return undefined
  if (status === 503 && headerOf(response, 'retry-after') !== undefined) return undefined
  const message = response.body.toString('utf8').slice(0, 120)
  return `a ${status}${status === 503 ? ' without Retry-After' : ''}, a fault no client input may cause: ${JSON.stringify(message)}`
}
