import { MongoBinary, MongoMemoryReplSet } from 'mongodb-memory-server'

/** A MongoDB deployment the tests may use, and how to let go of it. */
export interface RealMongo {
  readonly uri: string
  /** Where the URI came from, for the test log. */
  readonly origin: string
  readonly stop: () => Promise<void>
}

/**
 * The server `MONGODB_URI` names when the run sets it; otherwise a single-node replica set
 * (so retryable writes and majority write concern are real) of a mongod that
 * mongodb-memory-server downloads on first use and keeps in its cache. Rejects when neither can
 * be had.
 */
export const startRealMongo = async (): Promise<RealMongo> => {
  const named = process.env.MONGODB_URI
  if (named !== undefined && named !== '') {
    return { uri: named, origin: 'MONGODB_URI', stop: async () => {} }
  }
  // Finding (or downloading) the binary first: when that fails, the error comes back here
  // quietly, where MongoMemoryReplSet.create would first print it with its stack on stderr.
  await MongoBinary.getPath()
  const replSet = await MongoMemoryReplSet.create({ replSet: { count: 1, storageEngine: 'wiredTiger' } })
  return {
    uri: replSet.getUri(),
    origin: 'mongodb-memory-server',
    stop: async () => {
      await replSet.stop({ doCleanup: true, force: false })
    },
  }
}

/** Whether this run must fail, rather than be pending, when no real MongoDB can be had. */
export const mongodbRequired = (): boolean => process.env.REQUIRE_MONGODB === '1'
