// A request body in a Content-Encoding the service decodes, whole or damaged: a decoder that
// trusts its input meets a stream that ends early, or bytes after the stream's end.
import fc from 'fast-check'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'

export type ContentCoding = 'identity' | 'gzip' | 'deflate' | 'br'

/** What happened to the coded bytes on the way: nothing, cut short, or followed by more. */
export type Damage = 'none' | 'truncated' | 'trailing'

export interface BodyCoding {
  readonly coding: ContentCoding
  readonly damage: Damage
  /** How the coding is named in the field: as registered, or in another case. */
  readonly upperCase: boolean
}

export const bodyCoding: fc.Arbitrary<BodyCoding> = fc.oneof(
  { arbitrary: fc.constant<BodyCoding>({ coding: 'identity', damage: 'none', upperCase: false }), weight: 3 },
  {
    arbitrary: fc.record({
      coding: fc.constantFrom<ContentCoding>('gzip', 'deflate', 'br'),
      damage: fc.constantFrom<Damage>('none', 'truncated', 'trailing'),
      upperCase: fc.boolean(),
    }),
    weight: 2,
  },
)

const compress = (coding: ContentCoding, bytes: Buffer): Buffer => {
  switch (coding) {
    case 'identity':
      return bytes
    case 'gzip':
      return gzipSync(bytes)
    case 'deflate':
      return deflateSync(bytes)
    case 'br':
      return brotliCompressSync(bytes)
  }
}

/** The Content-Encoding header line (none for identity) and the body's bytes, as latin1 text. */
export const codeBody = ({ coding, damage, upperCase }: BodyCoding, body: string): { readonly field: string; readonly body: string } => {
  if (coding === 'identity') return { field: '', body }
  const coded = compress(coding, Buffer.from(body, 'latin1'))
  const damaged =
    damage === 'truncated'
      ? coded.subarray(0, Math.max(1, coded.length - 3))
      : damage === 'trailing'
        ? Buffer.concat([coded, Buffer.from('trailing bytes', 'latin1')])
        : coded
  return { field: `Content-Encoding: ${upperCase ? coding.toUpperCase() : coding}\r\n`, body: damaged.toString('latin1') }
}
