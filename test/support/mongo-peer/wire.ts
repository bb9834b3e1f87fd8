// The MongoDB wire protocol, as far as the official driver uses it, after the MongoDB Wire
// Protocol reference (docs: "MongoDB Wire Protocol", sections "Standard Message Header",
// "OP_MSG", "OP_QUERY", "OP_REPLY"). All integers are little-endian.
import { deserialize, serialize, type Document } from 'bson'

export const OP_REPLY = 1
export const OP_QUERY = 2004
export const OP_MSG = 2013

const HEADER_BYTES = 16
// OP_MSG flagBits: bit 0 checksumPresent, bit 1 moreToCome (no reply is expected; on a reply,
// another follows), bit 16 exhaustAllowed (the client takes a stream of replies).
const CHECKSUM_PRESENT = 1 << 0
const MORE_TO_COME = 1 << 1
const EXHAUST_ALLOWED = 1 << 16

/** A command as a request carried it, whatever the opcode. */
export interface WireRequest {
  readonly requestId: number
  readonly opCode: typeof OP_MSG | typeof OP_QUERY
  /** The command document; an OP_MSG kind-1 section becomes a field of it (`documents` for insert). */
  readonly command: Document
  /** The size of the command's own BSON object (an OP_MSG's kind-0 section), which mongod bounds. */
  readonly bodyBytes: number
  /** Whether the client expects no reply (OP_MSG moreToCome). */
  readonly moreToCome: boolean
  /** Whether the client takes replies streamed one after the other (OP_MSG exhaustAllowed). */
  readonly exhaustAllowed: boolean
}

// Documents keep their exact BSON types (Int32, Long, Double) so a stored document reads back as
// it was written.
const DESERIALIZE = { promoteValues: false } as const

/**
 * Splits a byte stream into whole messages: each begins with its own length, so a chunk may hold
 * part of one message or several. A length over `maxMessageBytes` is refused by a throw, as mongod
 * closes a connection that announces one.
 */
export const makeMessageReader = (maxMessageBytes = Infinity): ((chunk: Buffer) => Buffer[]) => {
  let pending: Buffer = Buffer.alloc(0)
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    const messages: Buffer[] = []
    while (pending.length >= 4) {
      const length = pending.readInt32LE(0)
      if (length < HEADER_BYTES) throw new Error(`malformed message: length ${length}`)
      if (length > maxMessageBytes) throw new Error(`message of ${length} bytes is over the limit`)
      if (pending.length < length) break
      messages.push(pending.subarray(0, length))
      pending = pending.subarray(length)
    }
    return messages
  }
}

/** Decodes one whole message; any opcode but OP_MSG and OP_QUERY is refused by a throw. */
export const decodeRequest = (message: Buffer): WireRequest => {
  const requestId = message.readInt32LE(4)
  const opCode = message.readInt32LE(12)
  if (opCode === OP_MSG) return { requestId, opCode, ...decodeOpMsg(message, message.subarray(HEADER_BYTES)) }
  if (opCode === OP_QUERY) {
    return { requestId, opCode, ...decodeOpQuery(message.subarray(HEADER_BYTES)), moreToCome: false, exhaustAllowed: false }
  }
  throw new Error(`unsupported opcode ${opCode}`)
}

// OP_MSG: uint32 flagBits, then sections up to the optional CRC-32C checksum. A kind-0 section
// is the command body (exactly one); a kind-1 section is a document sequence: int32 size
// (counting itself), a cstring identifier, then documents.
const decodeOpMsg = (message: Buffer, body: Buffer): { command: Document; bodyBytes: number; moreToCome: boolean; exhaustAllowed: boolean } => {
  const flags = body.readUInt32LE(0)
  const end = body.length - (flags & CHECKSUM_PRESENT ? 4 : 0)
  // mongod checks a checksum that is present and closes the connection when it does not match.
  if (flags & CHECKSUM_PRESENT && crc32c(message.subarray(0, HEADER_BYTES + end)) !== body.readUInt32LE(end)) {
    throw new Error('OP_MSG checksum mismatch')
  }
  let offset = 4
  let command: Document | undefined
  let bodyBytes = 0
  const sequences: Record<string, Document[]> = {}
  while (offset < end) {
    const kind = body.readUInt8(offset)
    offset += 1
    if (kind === 0) {
      const size = body.readInt32LE(offset)
      command = deserialize(body.subarray(offset, offset + size), DESERIALIZE)
      bodyBytes = size
      offset += size
    } else if (kind === 1) {
      const size = body.readInt32LE(offset)
      const sectionEnd = offset + size
      const nameEnd = body.indexOf(0, offset + 4)
      const identifier = body.toString('utf8', offset + 4, nameEnd)
      const documents: Document[] = []
      for (let at = nameEnd + 1; at < sectionEnd; ) {
        const docSize = body.readInt32LE(at)
        documents.push(deserialize(body.subarray(at, at + docSize), DESERIALIZE))
        at += docSize
      }
      sequences[identifier] = documents
      offset = sectionEnd
    } else {
      throw new Error(`unsupported OP_MSG section kind ${kind}`)
    }
  }
  if (command === undefined) throw new Error('OP_MSG without a body section')
  return {
    command: { ...command, ...sequences },
    bodyBytes,
    moreToCome: (flags & MORE_TO_COME) !== 0,
    exhaustAllowed: (flags & EXHAUST_ALLOWED) !== 0,
  }
}

// OP_QUERY (legacy; the driver uses it only for the first `hello` of a connection): int32
// flags, cstring fullCollectionName (`admin.$cmd`), int32 numberToSkip, int32 numberToReturn,
// then the command document. The database comes from the collection name.
const decodeOpQuery = (body: Buffer): { command: Document; bodyBytes: number } => {
  const nameEnd = body.indexOf(0, 4)
  const fullCollectionName = body.toString('utf8', 4, nameEnd)
  const queryStart = nameEnd + 1 + 8
  const size = body.readInt32LE(queryStart)
  const query = deserialize(body.subarray(queryStart, queryStart + size), DESERIALIZE)
  const command = '$query' in query ? (query.$query as Document) : query
  return { command: { ...command, $db: fullCollectionName.split('.')[0] }, bodyBytes: size }
}

/**
 * The reply to a request, in the opcode the request came in; `moreToCome` (OP_MSG only) tells the
 * client that another reply to the same request follows.
 */
export const encodeReply = (request: WireRequest, requestId: number, reply: Document, moreToCome = false): Buffer =>
  request.opCode === OP_MSG
    ? encodeOpMsg(request.requestId, requestId, reply, moreToCome)
    : encodeOpReply(request.requestId, requestId, reply)

const header = (length: number, requestId: number, responseTo: number, opCode: number): Buffer => {
  const bytes = Buffer.alloc(HEADER_BYTES)
  bytes.writeInt32LE(length, 0)
  bytes.writeInt32LE(requestId, 4)
  bytes.writeInt32LE(responseTo, 8)
  bytes.writeInt32LE(opCode, 12)
  return bytes
}

// A reply OP_MSG: flagBits (moreToCome or 0) and one kind-0 section.
const encodeOpMsg = (responseTo: number, requestId: number, reply: Document, moreToCome: boolean): Buffer => {
  const body = serialize(reply)
  const prefix = Buffer.alloc(5)
  prefix.writeUInt32LE(moreToCome ? MORE_TO_COME : 0, 0)
  prefix.writeUInt8(0, 4)
  return Buffer.concat([header(HEADER_BYTES + 5 + body.length, requestId, responseTo, OP_MSG), prefix, body])
}

// OP_REPLY: int32 responseFlags (8 = AwaitCapable, as mongod sets it), int64 cursorID,
// int32 startingFrom, int32 numberReturned, then the documents.
const encodeOpReply = (responseTo: number, requestId: number, reply: Document): Buffer => {
  const body = serialize(reply)
  const fields = Buffer.alloc(20)
  fields.writeInt32LE(8, 0)
  fields.writeBigInt64LE(0n, 4)
  fields.writeInt32LE(0, 12)
  fields.writeInt32LE(1, 16)
  return Buffer.concat([header(HEADER_BYTES + 20 + body.length, requestId, responseTo, OP_REPLY), fields, body])
}

// CRC-32C (Castagnoli), as OP_MSG's checksum: over the whole message but the checksum itself.
const CRC32C_TABLE = Uint32Array.from({ length: 256 }, (_, byte) => {
  let crc = byte
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1
  return crc >>> 0
})

export const crc32c = (bytes: Uint8Array): number => {
  let crc = 0xffffffff
  for (const byte of bytes) crc = (CRC32C_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}
