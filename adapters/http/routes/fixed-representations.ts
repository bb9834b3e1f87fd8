import { createHash } from 'node:crypto'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { pipe } from 'fp-ts/lib/function.js'
import * as O from 'fp-ts/lib/Option.js'
import { foldListMembers, weightedMember, type WeightedMember } from '../context/list-members.js'
import type { Representation } from '../context/answer.js'
import type { RouteRequest } from '../context/route.js'

/**
 * A body that never changes while the app lives (the OpenAPI document, the `/docs` files), in
 * each coding it is served in, with a strong ETag per coding.
 */
export interface FixedRepresentations {
  readonly type: string
  readonly cacheControl: string
  readonly identity: Buffer
  readonly br: Buffer
  readonly gzip: Buffer
  readonly etag: string
}

// Compressed once, when the app is built, not per request: brotli over Swagger UI's bundle is far
// too slow to pay on each request (docs/performance.md has the figures).
export const represent = (type: string, body: Buffer, cacheControl: string): FixedRepresentations => ({
  type,
  cacheControl,
  identity: body,
  br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: gzipSync(body, { level: 6 }),
  etag: createHash('sha256').update(body).digest('base64url').slice(0, 27),
})

type Coding = 'br' | 'gzip' | 'identity'

// The weights Accept-Encoding gives the codings served, and the one it gives the rest (`*`); a
// coding named twice keeps its last weight.
interface Weights {
  readonly br?: number
  readonly gzip?: number
  readonly '*'?: number
}

const isWeighed = (member: WeightedMember): member is WeightedMember & { readonly name: keyof Weights } =>
  member.name === 'br' || member.name === 'gzip' || member.name === '*'

const weigh = (weights: Weights, member: string): Weights =>
  pipe(
    weightedMember(member),
    O.filter(isWeighed),
    O.match(
      () => weights,
      ({ name, weight }) => ({ ...weights, [name]: weight }),
    ),
  )

// The coding the client weights highest, br on a tie (the smaller answer); none when it accepts
// neither. The order of the list says nothing (RFC 9110, section 12.4.2): browsers list gzip first
// and weight both 1.
const codingFor = (acceptEncoding: string): Coding => {
  const weights = foldListMembers<Weights>(acceptEncoding, {}, weigh)
  const [br, gzip] = [weights.br ?? weights['*'] ?? 0, weights.gzip ?? weights['*'] ?? 0]
  return br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : 'identity'
}

// Weak comparison, as RFC 9110 asks of If-None-Match; `*` matches any representation.
const namesEtag = (ifNoneMatch: string, etag: string): boolean => {
  const weak = `W/${etag}`
  return foldListMembers(ifNoneMatch, false, (named, member) => named || member === etag || member === weak || member === '*')
}

/**
 * Answers GET and HEAD with the representation the client's Accept-Encoding takes best, or 304
 * when If-None-Match names its ETag. `headers` are sent with every answer, 304 included. The
 * answers are made once, when the app is built: a request only chooses among them.
 */
export const serveRepresentations = (
  route: string,
  file: FixedRepresentations,
  headers: Readonly<Record<string, string>> = {},
): ((request: { readonly head: Pick<RouteRequest['head'], 'acceptEncoding' | 'ifNoneMatch'> }) => Representation) => {
  const answers = (coding: Coding) => {
    const etag = `"${file.etag}${coding === 'identity' ? '' : `-${coding}`}"`
    const common = { ...headers, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': file.cacheControl, ETag: etag }
    const representation: Representation = {
      _tag: 'Representation',
      route,
      status: 200,
      headers: { ...common, 'Content-Type': file.type, ...(coding === 'identity' ? {} : { 'Content-Encoding': coding }) },
      vary: 'Accept-Encoding',
      body: file[coding],
    }
    const notModified: Representation = { _tag: 'Representation', route, status: 304, headers: common, vary: 'Accept-Encoding' }
    return { etag, representation, notModified }
  }
  const byCoding = { br: answers('br'), gzip: answers('gzip'), identity: answers('identity') }
  return ({ head }) => {
    const { etag, representation, notModified } = byCoding[codingFor(head.acceptEncoding ?? '')]
    return namesEtag(head.ifNoneMatch ?? '', etag) ? notModified : representation
  }
}
