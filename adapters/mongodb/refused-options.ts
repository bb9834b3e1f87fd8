import type { MongoClient } from 'mongodb'

/**
 * Why the options a client was made with (from the connection string or from code) break what
 * this adapter promises, one sentence per reason; empty when they do not. Each of them can be
 * known wrong before anything is sent, so the service stops at start rather than answer wrongly
 * request by request.
 */
export const refusedOptionsOf = (client: MongoClient, operationMs: number): ReadonlyArray<string> =>
  [breakingDecoding(client), rawReplies(client), unacknowledgedWrites(client), compression(client), shortSocketTimeout(client, operationMs)].filter(
    (reason): reason is string => reason !== undefined,
  )

// Decoding options that make every stored id unreadable: int64 values would come back as Long
// (or every value as a BSON wrapper), which no plant decodes from.
const breakingDecoding = ({ bsonOptions }: MongoClient): string | undefined => {
  const named = [
    ...(bsonOptions.promoteLongs === false ? ['promoteLongs=false'] : []),
    ...(bsonOptions.promoteValues === false ? ['promoteValues=false'] : []),
  ]
  return named.length === 0
    ? undefined
    : `${named.join(' and ')} cannot be used: this adapter reads int64 values, plant ids among them, as bigint`
}

// Replies left as BSON bytes: a taken id could not be told from any other failure of the insert,
// nor the stored plant read back, so every replay and every conflict would fail.
const rawReplies = ({ bsonOptions }: MongoClient): string | undefined =>
  bsonOptions.raw === true
    ? 'raw=true cannot be used: MongoDB\'s replies would stay undecoded bytes, so a create could neither recognise a taken id nor read the plant stored under it'
    : undefined

// An unacknowledged insert is sent with no reply to wait for: a create could not tell its plant
// stored from an id another plant holds, and would answer 200 for both.
const unacknowledgedWrites = ({ options }: MongoClient): string | undefined =>
  options.writeConcern?.w === 0
    ? 'w=0 cannot be used: an unacknowledged insert gets no answer, so a create could not tell its plant stored from an id another plant already holds (it would answer 200 for both)'
    : undefined

// The driver looks at a call's abort signal, then compresses the command on libuv's thread pool,
// then writes it without looking again: an insert could reach MongoDB after its call was answered
// 503 for its deadline, and the adapter promises that nothing is sent after the 503.
const compression = ({ options }: MongoClient): string | undefined => {
  const compressors = options.compressors.filter((name) => name !== 'none')
  return compressors.length === 0
    ? undefined
    : `compressors=${compressors.join(',')} cannot be used: the driver compresses a command after its last look at the deadline, so an insert could be sent to MongoDB after its request was answered 503`
}

// A socket timeout shorter than the deadline ends a slow reply before the deadline does: the
// driver closes the connection (a new one, with its handshakes, for the next call) and the create
// is answered 503 early, though MongoDB may still apply its write. The deadline already bounds
// every reply, so such a timeout only moves that bound earlier, at that cost.
const shortSocketTimeout = ({ options }: MongoClient, operationMs: number): string | undefined =>
  options.socketTimeoutMS > 0 && options.socketTimeoutMS < operationMs
    ? `socketTimeoutMS=${options.socketTimeoutMS} cannot be used below the ${operationMs} ms deadline (MONGODB_TIMEOUT_MS): a reply slower than it would close its connection and answer 503 for a write MongoDB may still apply; leave it out (the deadline bounds every reply) or set it to at least ${operationMs}`
    : undefined
