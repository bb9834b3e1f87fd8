import { idHash, randomIdHashKey } from './id-hash.js'

/**
 * A set of int64 ids, each with the index of its record, in typed arrays only: no heap object per
 * id, so a major collection has nothing per plant to mark, however many ids it holds. The ids are
 * spread over many small open-addressing tables (shards); a table that fills up doubles on its
 * own, so one growth step copies a shard's share of the ids, never all of them.
 */
export interface IdTable {
  /** The record index stored under the id, or -1. The id must be an int64 (`PlantId.is`). */
  readonly get: (id: bigint) => number
  /** Stores `record` under an id `get` has just answered -1 for. */
  readonly add: (id: bigint, record: number) => void
}

const SHARD_BITS = 8
const FIRST_SLOTS = 16
// Each slot holds the id's low and high 32 bits and its record index plus one (0: empty).
const STRIDE = 3

interface Shard {
  slots: Int32Array
  mask: number
  size: number
}

// An id's two 32-bit halves, read through one 8-byte scratch buffer: no bigint arithmetic, which
// would allocate on every call.
const scratch = new BigInt64Array(1)
const halves = new Int32Array(scratch.buffer)

export const makeIdTable = (): IdTable => {
  // Drawn per table: which ids share a shard or a probe run differs from process to process, so a
  // client cannot look them up in advance and pile its plants into one (as it could if the id's
  // own low bits chose).
  const key = randomIdHashKey()
  const shards: Shard[] = Array.from({ length: 1 << SHARD_BITS }, () => ({
    slots: new Int32Array(FIRST_SLOTS * STRIDE),
    mask: FIRST_SLOTS - 1,
    size: 0,
  }))
  // The shard from the hash's top bits, the slot from its low bits: independent while a shard
  // holds fewer than 2^24 slots.
  const shardOf = (hash: number): Shard => shards[hash >>> (32 - SHARD_BITS)] as Shard

  // Linear probing: the slot holding the halves, or the empty slot where they would go.
  const probe = (shard: Shard, hash: number, low: number, high: number): number => {
    const { slots, mask } = shard
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = slot * STRIDE
      if (slots[at + 2] === 0 || (slots[at] === low && slots[at + 1] === high)) return at
    }
  }

  const grow = (shard: Shard): void => {
    const old = shard.slots
    shard.slots = new Int32Array(old.length * 2)
    shard.mask = shard.mask * 2 + 1
    for (let at = 0; at < old.length; at += STRIDE) {
      const record = old[at + 2] as number
      if (record === 0) continue
      const low = old[at] as number
      const high = old[at + 1] as number
      const to = probe(shard, idHash(key, low, high), low, high)
      shard.slots[to] = low
      shard.slots[to + 1] = high
      shard.slots[to + 2] = record
    }
  }

  return {
    get: (id) => {
      scratch[0] = id
      const low = halves[0] as number
      const high = halves[1] as number
      const hash = idHash(key, low, high)
      const shard = shardOf(hash)
      const at = probe(shard, hash, low, high)
      return (shard.slots[at + 2] as number) - 1
    },
    add: (id, record) => {
      scratch[0] = id
      const low = halves[0] as number
      const high = halves[1] as number
      const hash = idHash(key, low, high)
      const shard = shardOf(hash)
      // At most three quarters full, so a probe for an absent id stays short.
      if ((shard.size + 1) * 4 > (shard.mask + 1) * 3) grow(shard)
      const at = probe(shard, hash, low, high)
      shard.slots[at] = low
      shard.slots[at + 1] = high
      shard.slots[at + 2] = record + 1
      shard.size += 1
    },
  }
}
