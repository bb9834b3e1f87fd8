import { expect } from 'chai'
import { idHash, type IdHashKey } from '../../../../adapters/in-memory/id-hash.js'

const KEY_A: IdHashKey = { k0: 0x03020100, k1: 0x07060504 }
const KEY_B: IdHashKey = { k0: 0x5eed0001 | 0, k1: 0xfeedface | 0 }

// Ids 1, 2, 3... as a client would pick them, given as their two 32-bit halves.
const sequentialIds = (count: number): ReadonlyArray<readonly [number, number]> =>
  Array.from({ length: count }, (_, i) => [i + 1, 0] as const)

// The pairs of ids whose hashes under `key` agree in the bits `mask` keeps.
const collisions = (key: IdHashKey, ids: ReadonlyArray<readonly [number, number]>, mask: number) => {
  const seen = new Map<number, readonly [number, number]>()
  const pairs: Array<readonly [readonly [number, number], readonly [number, number]]> = []
  for (const id of ids) {
    const bits = (idHash(key, id[0], id[1]) & mask) >>> 0
    const earlier = seen.get(bits)
    if (earlier === undefined) seen.set(bits, id)
    else pairs.push([earlier, id])
  }
  return pairs
}

// MurmurHash3's block transform, f, and its inverse: ids whose blocks differ by what f turns
// into a flip the next block cancels collide under MurmurHash3 whatever its seed.
const inverseOf = (odd: number): number => {
  let x = odd
  for (let step = 0; step < 5; step += 1) x = Math.imul(x, 2 - Math.imul(odd, x))
  return x
}
const murmurBlock = (k: number): number => {
  const m = Math.imul(k, 0xcc9e2d51)
  return Math.imul((m << 15) | (m >>> 17), 0x1b873593)
}
const murmurBlockInverse = (y: number): number => {
  const r = Math.imul(y, inverseOf(0x1b873593))
  return Math.imul((r >>> 15) | (r << 17), inverseOf(0xcc9e2d51))
}
const murmurPartnerOf = (low: number, high: number): readonly [number, number] => [
  murmurBlockInverse(murmurBlock(low) ^ 0x00040000),
  murmurBlockInverse(murmurBlock(high) ^ 0x80000000),
]

describe('the keyed hash of the in-memory id table', function () {
  it('is HalfSipHash-1-3 of the id as 8 bytes, little-endian', function () {
    // From the reference C implementation with cROUNDS 1 and dROUNDS 3.
    expect(idHash(KEY_A, 0x03020100, 0x07060504)).to.equal(1467586993)
    expect(idHash({ k0: 0xdeadbeef | 0, k1: 0x12345678 }, 0xffffffff | 0, 0)).to.equal(2160437950)
    expect(idHash({ k0: 0, k1: 0 }, 0, 0)).to.equal(2677174339)
  })

  it('has no pairs that collide whatever the key, as a seeded MurmurHash3 has', function () {
    for (let i = 0; i < 64; i += 1) {
      const [low, high] = [i * 7919, i]
      const [partnerLow, partnerHigh] = murmurPartnerOf(low, high)
      const collideUnder = [KEY_A, KEY_B].filter((key) => idHash(key, low, high) === idHash(key, partnerLow, partnerHigh))
      expect(collideUnder, `${low}:${high} and ${partnerLow}:${partnerHigh}`).to.have.length.below(2)
    }
  })

  for (const [what, count, mask] of [
    ['in all 32 bits', 1 << 18, 0xffffffff],
    ['in the bits that choose a shard and a slot in it', 1 << 11, 0xff0000ff],
  ] as const) {
    it(`collides ${what} in pairs that one key makes and another does not`, function () {
      const ids = sequentialIds(count)
      const found = collisions(KEY_A, ids, mask)
      expect(found.length, 'pairs found under the first key').to.be.at.least(4)
      const still = found.filter(([a, b]) => ((idHash(KEY_B, a[0], a[1]) ^ idHash(KEY_B, b[0], b[1])) & mask) === 0)
      expect(still, 'pairs that collide under the second key too').to.deep.equal([])
    })
  }
})
