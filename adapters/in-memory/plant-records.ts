import type { NewPlant } from '../../core/index.js'
import { makeTextChunks } from './text-chunks.js'

/**
 * The stored plants, numbered in insertion order, in fixed-size blocks of typed arrays and their
 * text in shared UTF-16 buffers (text-chunks.ts): no heap object per plant, so a major collection's work does not
 * grow with the plants held, and adding a block never copies the earlier ones.
 */
export interface PlantRecords {
  /** Stores a copy of the plant's fields and answers its record number. */
  readonly append: (plant: NewPlant) => number
  /** A fresh object with the fields of the plant under that record number. */
  readonly plantAt: (record: number) => NewPlant
  readonly count: () => number
}

/** What one record takes in its block: the id, the text's position and the two lengths. */
export const RECORD_BYTES = 8 + 8 + 4 + 4

const BLOCK_BITS = 12
const BLOCK = 1 << BLOCK_BITS
const NO_TAG = -1

interface Block {
  readonly ids: BigInt64Array
  readonly positions: Float64Array
  // The name's length in bytes, then the tag's (NO_TAG when the plant has none), per record.
  readonly lengths: Int32Array
}

export const makePlantRecords = (): PlantRecords => {
  const text = makeTextChunks()
  const blocks: Block[] = []
  let count = 0
  return {
    append: ({ id, name, tag }) => {
      const index = count & (BLOCK - 1)
      if (index === 0) blocks.push({ ids: new BigInt64Array(BLOCK), positions: new Float64Array(BLOCK), lengths: new Int32Array(2 * BLOCK) })
      const block = blocks[count >>> BLOCK_BITS] as Block
      block.ids[index] = id
      block.positions[index] = text.end()
      block.lengths[2 * index] = text.append(name)
      block.lengths[2 * index + 1] = tag === undefined ? NO_TAG : text.append(tag)
      count += 1
      return count - 1
    },
    plantAt: (record) => {
      const block = blocks[record >>> BLOCK_BITS] as Block
      const index = record & (BLOCK - 1)
      const position = block.positions[index] as number
      const nameBytes = block.lengths[2 * index] as number
      const tagBytes = block.lengths[2 * index + 1] as number
      const id = block.ids[index] as bigint
      const name = text.read(position, nameBytes)
      return (tagBytes === NO_TAG ? { id, name } : { id, name, tag: text.read(position + nameBytes, tagBytes) }) as NewPlant
    },
    count: () => count,
  }
}
