import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import type { Clock, PlantStore } from '../../core/index.js'
import { resolveTimeouts, type MongoTimeouts } from './client-options.js'
import { makeMongoConnection, type InvalidMongoSettings } from './connection.js'
import { makeMongoPlantStore } from './plant-store.js'
import { MAX_TIMER_MS, systemClock, wholeNumberOption } from '../../wire/index.js'

/** Where and how to keep plants in MongoDB. */
export interface MongoPlantStoreSettings {
  /**
   * A MongoDB connection string; options named in it win over this adapter's defaults, but for
   * those that would break its promises (`w=0`, `compressors`, `raw=true`,
   * `promoteLongs=false`, `promoteValues=false`), which it refuses.
   */
  readonly uri: string
  readonly dbName: string
  /** Defaults to `plants`. */
  readonly collectionName?: string
  /**
   * Each one not given takes its default (see DEFAULT_MONGO_TIMEOUTS); each one given is a whole
   * number of milliseconds from 1 to 2147483647 (the longest a Node timer waits).
   */
  readonly timeouts?: Partial<MongoTimeouts>
  /**
   * What the adapter's timed policies read (deadlines and the inserts' lives, how long a configuration fault is held
   * for readiness, when a client is replaced); the system clock by default.
   */
  readonly clock?: Clock
}

/** A plant store backed by MongoDB, and the way to let go of its connections. */
export interface MongoPlantStore {
  readonly store: PlantStore
  /** Refuses new calls, lets the calls in flight finish (each within its deadline), then disconnects. */
  readonly close: () => Promise<void>
}

/**
 * Opens a MongoDB plant store without waiting for MongoDB: it connects on first use, so this
 * returns at once even while the server is down (`checkReady` says when it is reachable). Fails
 * only when the connection string or an option cannot be understood, names an option the
 * adapter refuses, or a timeout is not a whole number of milliseconds in its range.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { openMongoPlantStore } from 'plant-store/adapters/mongodb'
 *
 * const opened = openMongoPlantStore({ uri: 'mongodb://db-1,db-2,db-3/?replicaSet=rs0', dbName: 'plants' })
 * if (E.isLeft(opened)) throw new Error(opened.left.message)
 * const { store, close } = opened.right
 * process.once('SIGTERM', () => void close())
 * ```
 */
export const openMongoPlantStore = (
  settings: MongoPlantStoreSettings,
): E.Either<InvalidMongoSettings, MongoPlantStore> => {
  const clock = settings.clock ?? systemClock
  return pipe(
    checkedTimeouts(settings.timeouts),
    E.chain((timeouts) =>
      makeMongoConnection({
        uri: settings.uri,
        dbName: settings.dbName,
        collectionName: settings.collectionName ?? 'plants',
        timeouts,
        clock,
      }),
    ),
    E.map((connection) => ({ store: makeMongoPlantStore(connection, clock), close: connection.close })),
  )
}

// A deadline of NaN would fire at once, as would one beyond the longest a Node timer waits.
const checkedTimeouts = (given: Partial<MongoTimeouts> = {}): E.Either<InvalidMongoSettings, MongoTimeouts> =>
  E.tryCatch(
    () => {
      for (const [name, value] of Object.entries(given)) {
        if (value !== undefined) wholeNumberOption('openMongoPlantStore', `timeouts.${name}`, value, 1, MAX_TIMER_MS)
      }
      return resolveTimeouts(given)
    },
    (error): InvalidMongoSettings => ({ _tag: 'InvalidMongoSettings', message: error instanceof Error ? error.message : String(error) }),
  )
