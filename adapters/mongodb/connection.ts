import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { MongoClient, MongoClientClosedError, type Collection, type Db } from 'mongodb'
import { storageUnavailable, type StorageUnavailable } from '../../core/index.js'
import { clientOptionsFor, type MongoTimeouts } from './client-options.js'
import { makeClientWatchdog } from './client-watchdog.js'
import { withinDeadline } from './deadline.js'
import type { PlantDocument } from './plant-document.js'
import { meansStorageUnavailable } from './unavailability.js'

/** What one store call gets to work with. */
export interface MongoWork {
  readonly db: Db
  readonly plants: Collection<PlantDocument>
  /** Aborted when the call's deadline has passed. */
  readonly signal: AbortSignal
}

/**
 * A lazily connected MongoDB client. Each call connects first when it must, so the service can
 * start while MongoDB is down and recovers by itself when it returns; each call is bounded by
 * the operation deadline.
 */
export interface MongoConnection {
  /** Runs `work`; a failure that means storage is unreachable is a Left, any other is thrown. */
  readonly attempt: <A>(work: (on: MongoWork) => Promise<A>) => TE.TaskEither<StorageUnavailable, A>
  /** Runs `work`; every failure is a Left (a readiness probe cannot tell more than "not ready"). */
  readonly probe: <A>(work: (on: MongoWork) => Promise<A>) => TE.TaskEither<StorageUnavailable, A>
  /** Refuses new calls, waits for those in flight, then closes the client. */
  readonly close: () => Promise<void>
}

export interface MongoConnectionSettings {
  readonly uri: string
  readonly dbName: string
  readonly collectionName: string
  readonly timeouts: MongoTimeouts
}

/** The connection string or an option could not be understood; nothing was opened. */
export interface InvalidMongoSettings {
  readonly _tag: 'InvalidMongoSettings'
  readonly message: string
}

/** Makes the client without connecting it: this never waits and never fails for lack of a server. */
export const makeMongoConnection = (
  settings: MongoConnectionSettings,
): E.Either<InvalidMongoSettings, MongoConnection> =>
  E.map((client: MongoClient) => connectionOver(client, settings))(newClient(settings))

const newClient = ({ uri, timeouts }: MongoConnectionSettings): E.Either<InvalidMongoSettings, MongoClient> =>
  E.tryCatch(
    () => new MongoClient(uri, clientOptionsFor(uri, timeouts)),
    (error) => ({
      _tag: 'InvalidMongoSettings',
      message: error instanceof Error ? error.message : String(error),
    }),
  )

/** One client and the calls that run on it. */
interface ClientInUse {
  readonly client: MongoClient
  readonly db: Db
  readonly plants: Collection<PlantDocument>
  readonly inFlight: Set<Promise<unknown>>
}

const inUse = (client: MongoClient, settings: MongoConnectionSettings): ClientInUse => {
  const db = client.db(settings.dbName)
  return { client, db, plants: db.collection<PlantDocument>(settings.collectionName), inFlight: new Set() }
}

// The client is closed once the calls it carries have their answers (each within its deadline).
const closeAfterInFlight = async ({ client, inFlight }: ClientInUse): Promise<void> => {
  await Promise.allSettled([...inFlight])
  await client.close().catch(() => {})
}

const connectionOver = (first: MongoClient, settings: MongoConnectionSettings): MongoConnection => {
  let current = inUse(first, settings)
  const retiring = new Set<Promise<void>>()
  const watchdog = makeClientWatchdog(settings.timeouts.replaceClientAfterMs)
  let closing: Promise<void> | undefined

  // New calls go to a fresh client at once; the old one is closed when its calls have answered.
  const replaceClient = (): void => {
    if (closing !== undefined) return
    const fresh = newClient(settings)
    // The settings made a client before, so they make one again; if not, keep the one there is.
    if (E.isLeft(fresh)) return
    const retired = current
    current = inUse(fresh.right, settings)
    const closed: Promise<void> = closeAfterInFlight(retired).finally(() => retiring.delete(closed))
    retiring.add(closed)
  }

  const run = async <A>(deadlineMs: number, work: (on: MongoWork) => Promise<A>): Promise<A> => {
    if (closing !== undefined) throw new MongoClientClosedError()
    const on = current
    const call = withinDeadline(deadlineMs, async (signal) => {
      // Connecting again after a failed attempt opens a fresh topology; once connected, the
      // driver's monitor follows the server going away and coming back (and the watchdog
      // replaces the client when it does not).
      await on.client.connect()
      return work({ db: on.db, plants: on.plants, signal })
    })
    on.inFlight.add(call)
    // Only the current client's calls speak for it: a late answer from a client already retired
    // must neither reset the fresh one's clock nor retire it.
    try {
      const result = await call
      if (on === current) watchdog.succeeded()
      return result
    } catch (error) {
      if (on === current && meansStorageUnavailable(error) && watchdog.failedUnavailable()) replaceClient()
      throw error
    } finally {
      on.inFlight.delete(call)
    }
  }

  const settle =
    (deadlineMs: number, isExpected: (error: unknown) => boolean) =>
    <A>(work: (on: MongoWork) => Promise<A>): TE.TaskEither<StorageUnavailable, A> =>
    async () => {
      try {
        return E.right(await run(deadlineMs, work))
      } catch (error) {
        if (isExpected(error)) return E.left(storageUnavailable(error))
        throw error
      }
    }

  return {
    attempt: settle(settings.timeouts.operationMs, meansStorageUnavailable),
    probe: settle(settings.timeouts.readinessMs, () => true),
    close: () => {
      closing ??= Promise.all([closeAfterInFlight(current), ...retiring]).then(() => {})
      return closing
    },
  }
}
