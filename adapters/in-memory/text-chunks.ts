/**
 * Text appended as UTF-16 to fixed-size buffers, addressed by its position from the first byte:
 * many plants' names share one buffer, so the heap holds a handful of objects however many plants
 * there are, and growing adds a buffer without copying those already written. A text may run on
 * from one buffer into the next, so no byte is left unused. UTF-16, as JavaScript holds strings:
 * every string reads back to the code unit, and takes exactly 2 bytes per code unit, so what a
 * plant costs is known from its lengths alone.
 */
export interface TextChunks {
  /** Appends the text and answers how many bytes it took. */
  readonly append: (text: string) => number
  /** The text of `length` bytes from `position`, as `append` placed it. */
  readonly read: (position: number, length: number) => string
  /** Where the next text will be placed. */
  readonly end: () => number
}

export const CHUNK_BYTES = 64 * 1024

export const BYTES_PER_UNIT = 2
const ENCODING = 'utf16le'

export const makeTextChunks = (): TextChunks => {
  const chunks: Buffer[] = []
  let end = 0
  // The chunk `end` falls in, added when `end` reaches the end of the last one.
  const current = (): Buffer => {
    const index = Math.floor(end / CHUNK_BYTES)
    if (index === chunks.length) chunks.push(Buffer.allocUnsafeSlow(CHUNK_BYTES))
    return chunks[index] as Buffer
  }
  // Appends the bytes at `end`, running on into new chunks as each fills.
  const copyIn = (bytes: Buffer): void => {
    for (let from = 0; from < bytes.length; ) {
      const chunk = current()
      const offset = end % CHUNK_BYTES
      const copied = bytes.copy(chunk, offset, from, Math.min(bytes.length, from + CHUNK_BYTES - offset))
      from += copied
      end += copied
    }
  }
  return {
    append: (text) => {
      const chunk = current()
      const offset = end % CHUNK_BYTES
      const bytes = text.length * BYTES_PER_UNIT
      if (bytes <= CHUNK_BYTES - offset) end += chunk.write(text, offset, ENCODING)
      else copyIn(Buffer.from(text, ENCODING))
      return bytes
    },
    read: (position, length) => {
      if (length === 0) return ''
      const index = Math.floor(position / CHUNK_BYTES)
      const offset = position - index * CHUNK_BYTES
      if (offset + length <= CHUNK_BYTES) return (chunks[index] as Buffer).toString(ENCODING, offset, offset + length)
      // Gathered first, so a surrogate pair split between two chunks reads back whole.
      const bytes = Buffer.allocUnsafe(length)
      for (let done = 0; done < length; ) {
        const at = position + done
        const chunk = chunks[Math.floor(at / CHUNK_BYTES)] as Buffer
        const from = at % CHUNK_BYTES
        done += chunk.copy(bytes, done, from, Math.min(CHUNK_BYTES, from + length - done))
      }
      return bytes.toString(ENCODING)
    },
    end: () => end,
  }
}
