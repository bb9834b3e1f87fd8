import * as E from 'fp-ts/lib/Either.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import { MongoClient, MongoClientClosedError, type Collection, type Db } from 'mongodb'
import { storageUnavailable, type StorageUnavailable } from '../../core/index.js'
import { clientOptionsFor, type MongoTimeouts } from './client-options.js'
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

const connectionOver = (client: MongoClient, settings: MongoConnectionSettings): MongoConnection => {
  const db = client.db(settings.dbName)
  const plants = db.collection<PlantDocument>(settings.collectionName)
  const inFlight = new Set<Promise<unknown>>()
  let closing: Promise<void> | undefined

  const run = async <A>(work: (on: MongoWork) => Promise<A>): Promise<A> => {
    if (closing !== undefined) throw new MongoClientClosedError()
    const call = withinDeadline(settings.timeouts.operationMs, async (signal) => {
      // Connecting again after a failed attempt opens a fresh topology; once connected, the
      // driver's monitor follows the server going away and coming back.
      await client.connect()
      return work({ db, plants, signal })
    })
    inFlight.add(call)
    try {
      return await call
    } finally {
      inFlight.delete(call)
    }
  }

  const settle =
    (isExpected: (error: unknown) => boolean) =>
    <A>(work: (on: MongoWork) => Promise<A>): TE.TaskEither<StorageUnavailable, A> =>
    async () => {
      try {
        return E.right(await run(work))
      } catch (error) {
        if (isExpected(error)) return E.left(storageUnavailable(error))
        throw error
      }
    }

  return {
    attempt: settle(meansStorageUnavailable),
    probe: settle(() => true),
    close: () => {
      closing ??= Promise.allSettled([...inFlight]).then(() => client.close())
      return closing
    },
  }
}
