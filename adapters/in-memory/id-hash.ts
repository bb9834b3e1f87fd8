import { randomBytes } from 'node:crypto'

/** The 64-bit secret key of an `idHash`, as two 32-bit words. */
export interface IdHashKey {
  readonly k0: number
  readonly k1: number
}

/** A key drawn at random: which ids collide is then unknown outside the process. */
export const randomIdHashKey = (): IdHashKey => {
  const words = randomBytes(8)
  return { k0: words.readInt32LE(0), k1: words.readInt32LE(4) }
}

const rotl = (x: number, bits: number): number => (x << bits) | (x >>> (32 - bits))

/**
 * HalfSipHash-1-3 (32-bit output) of an id given as its low and high 32-bit halves: the 8 bytes
 * of the id, little-endian, under `key`. A keyed pseudorandom function, so which ids collide
 * (in full, or in the bits that choose a shard and a slot) depends on the key: a client that
 * knows the hash but not the key cannot build ids that pile into one probe run (hash flooding,
 * as the field calls that attack). A seeded
 * MurmurHash3 is not enough: a difference in one half that the next half cancels collides
 * whatever the seed.
 */
export const idHash = (key: IdHashKey, low: number, high: number): number => {
  let v0 = key.k0
  let v1 = key.k1
  let v2 = key.k0 ^ 0x6c796765
  let v3 = key.k1 ^ 0x74656462
  // Three compression rounds, one for each 4-byte word of the message (the low half, the high
  // half, then its length), and three finalization rounds. The state stays in local variables:
  // a round function would need it in a shared buffer or an object, and either doubles the cost.
  for (let round = 0; round < 6; round += 1) {
    const word = wordOf(round, low, high)
    if (round === 3) v2 ^= 0xff
    v3 ^= word
    v0 = (v0 + v1) | 0
    v1 = rotl(v1, 5) ^ v0
    v0 = rotl(v0, 16)
    v2 = (v2 + v3) | 0
    v3 = rotl(v3, 8) ^ v2
    v0 = (v0 + v3) | 0
    v3 = rotl(v3, 7) ^ v0
    v2 = (v2 + v1) | 0
    v1 = rotl(v1, 13) ^ v2
    v2 = rotl(v2, 16)
    v0 ^= word
  }
  return (v1 ^ v3) >>> 0
}

// The message word a round takes: the id's halves, then its length in bytes (8) in the top byte;
// none in the finalization rounds.
const wordOf = (round: number, low: number, high: number): number => {
  if (round === 0) return low
  if (round === 1) return high
  return round === 2 ? 8 << 24 : 0
}
