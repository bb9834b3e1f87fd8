import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { MongoClient, type Document } from 'mongodb'
import { openMongoPlantStore, type MongoPlantStore, type MongoTimeouts } from '../../../adapters/mongodb/index.js'
import type { PlantStoreFixture } from '../../contract/plant-store.contract.js'
import { expectRight } from '../either.js'
import type { PeerMonitoring } from '../mongo-peer/commands.js'
import { startMongoPeer, type MongoPeer } from '../mongo-peer/server.js'
import { plant } from '../plants.js'
import { yardstickMs } from '../yardstick.js'

/**
 * Deadlines short enough for a fault test to wait them out many times over. Server selection
 * stays above the driver's minimum heartbeat interval (500 ms): after a failover error the
 * driver's one retry waits for the monitor to find the primary again, which takes that long.
 */
export const TEST_TIMEOUTS: MongoTimeouts = {
  operationMs: 1500,
  serverSelectionMs: 1000,
  connectMs: 500,
  replaceClientAfterMs: 3000,
  readinessMs: 1000,
  configurationFaultHeldMs: 2000,
}

let databases = 0
/** A database name no other test of this process uses, so each store starts empty. */
export const freshDbName = (purpose: string): string => `${purpose}_${process.pid}_${(databases += 1)}`

/** Opens the adapter on `uri`; the settings are valid, so anything but Right fails the test. */
export const openStore = (
  uri: string,
  dbName: string,
  timeouts: Partial<MongoTimeouts> = TEST_TIMEOUTS,
): MongoPlantStore => expectRight(openMongoPlantStore({ uri, dbName, timeouts }))

/**
 * Starts `create` for each item `everyMs` after the previous one, whatever the earlier ones do: a
 * steady load, for the tests of a database that answers slowly.
 */
export const steadily = <T, A>(items: ReadonlyArray<T>, everyMs: number, create: (each: T) => Promise<A>): Promise<A[]> => {
  const start = performance.now()
  return Promise.all(
    items.map(async (each, index) => {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + index * everyMs - performance.now())))
      return create(each)
    }),
  )
}

/**
 * The yardstick of a test of a slow database: the slowest of `count` creates started `everyMs`
 * apart through a store of its own, on a database of its own, on a peer with no fault injected
 * yet. It is what the machine itself needs for a create under the test's load. The store's first
 * create, which also connects, is not timed: a steady load is what the yardstick measures, and a
 * run the machine held up is told apart by inRunsWithRoom.
 */
export const createYardstickMs = async (uri: string, count: number, everyMs: number): Promise<number> => {
  const { store, close } = openStore(uri, freshDbName('yardstick'))
  let id = 0n
  try {
    await store.insertUnlessExists(plant((id += 1n), 'Connecting'))()
    return await yardstickMs(count, everyMs, () => store.insertUnlessExists(plant((id += 1n), 'Yardstick'))())
  } finally {
    await close()
  }
}

/**
 * How long past a deadline a test lets an answer come: `marginMs` as written, or ten yardsticks
 * where the machine is slower now (the product's deadline stays as it is; only the room around
 * it grows).
 */
export const answerBoundMs = (deadlineMs: number, yardstick: number, marginMs = 1500): number => deadlineMs + Math.max(marginMs, 10 * yardstick)

/**
 * A suite's create yardstick (createYardstickMs), taken once before its tests on a peer of its own:
 * for the bounds its tests hold answers to (answerBoundMs).
 */
export const useCreateYardstick = (): (() => number) => {
  let ms: number | undefined
  before(async function () {
    const peer = await startMongoPeer()
    try {
      ms = await createYardstickMs(peer.uri, 10, 15)
    } finally {
      await peer.stop()
    }
  })
  return () => {
    if (ms === undefined) throw new Error('the yardstick is taken before the suite')
    return ms
  }
}

/** Runs `work` and says how long it took, so a test can check a bound on it. */
export const timed = async <A>(work: () => Promise<A>): Promise<{ result: A; ms: number }> => {
  const started = performance.now()
  const result = await work()
  return { result, ms: performance.now() - started }
}

/** Asks `probe` again until it is Right, failing the test when `withinMs` pass first. */
export const eventuallyRight = async <L, R>(
  probe: () => Promise<E.Either<L, R>>,
  withinMs: number,
): Promise<R> => {
  const until = Date.now() + withinMs
  for (;;) {
    const result = await probe()
    if (E.isRight(result)) return result.right
    if (Date.now() > until) expect.fail(`still Left after ${withinMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** A plain driver client for looking at what the adapter stored, with int64 read as bigint. */
export const withRawClient = async <A>(uri: string, work: (client: MongoClient) => Promise<A>): Promise<A> => {
  const client = new MongoClient(uri, { useBigInt64: true, serverSelectionTimeoutMS: 5000 })
  try {
    return await work(client)
  } finally {
    await client.close()
  }
}

/** The documents of a database's `plants` collection as a driver reads them, int64 values as Long. */
export const storedDocuments = (uri: string, dbName: string): Promise<Document[]> =>
  withRawClient(uri, (client) =>
    client.db(dbName).collection('plants').find({}, { useBigInt64: false, promoteLongs: false }).toArray(),
  )

/** A contract fixture: the adapter on a database of its own, dropped when the test is done. */
export const storeOnFreshDatabase = (uri: string, timeouts?: Partial<MongoTimeouts>): PlantStoreFixture => {
  const dbName = freshDbName('contract')
  const { store, close } = openStore(uri, dbName, timeouts)
  return {
    store,
    release: async () => {
      await close()
      await withRawClient(uri, (client) => client.db(dbName).dropDatabase())
    },
  }
}

/** A wire peer and a fresh database on it for each test; what the test opened on it closes first. */
export interface WirePeer {
  readonly peer: MongoPeer
  readonly dbName: string
  /** Closes `opened` after the test, before the peer stops. */
  readonly closeAfter: <A extends { readonly close: () => Promise<void> }>(opened: A) => A
  /** The documents of the test's `plants` collection, as the peer holds them. */
  readonly stored: () => ReturnType<MongoPeer['documents']>
}

/** The fixture of a suite on the wire peer: a peer started before each test and stopped after it. */
export const useWirePeer = (purpose: string, monitoring?: PeerMonitoring): WirePeer => {
  let peer: MongoPeer | undefined
  let dbName = ''
  const opened: Array<{ readonly close: () => Promise<void> }> = []
  beforeEach(async function () {
    peer = await startMongoPeer(monitoring === undefined ? {} : { monitoring })
    dbName = freshDbName(purpose)
  })
  afterEach(async function () {
    await Promise.all(opened.splice(0).map((each) => each.close()))
    await peer?.stop()
  })
  const started = (): MongoPeer => {
    if (peer === undefined) throw new Error('the wire peer starts before each test')
    return peer
  }
  return {
    get peer() {
      return started()
    },
    get dbName() {
      return dbName
    },
    closeAfter: (each) => {
      opened.push(each)
      return each
    },
    stored: () => started().documents(`${dbName}.plants`),
  }
}
