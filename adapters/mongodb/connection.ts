import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import type * as TE from 'fp-ts/lib/TaskEither.js'
import type { Collection, Db, TopologyDescriptionChangedEvent } from 'mongodb'
import { storageMisconfigured, storageUnavailable, type Clock, type StorageUnavailable } from '../../core/index.js'
import { clientOptionsFor, namesWriteConcernTimeout, writeConcernTimeoutWithin, type MongoTimeouts } from './client-options.js'
import { makeClientWatchdog } from './client-watchdog.js'
import { configurationFaultIn } from './configuration-fault.js'
import { makeFaultHold } from './fault-hold.js'
import { deadlinePassed, isDeadlineExceeded, noTimeLeft, withinDeadline } from './deadline.js'
import { insertBatchLimitsFor, makeInsertBatches, type InsertBatches, type InsertResult } from './insert-batches.js'
import { sendInsertInto, type WriteConcernWithin } from './insert-command.js'
import type { PlantDocument } from './plant-document.js'
import { refusedOptionsOf } from './refused-options.js'
import { notWritableStateOf } from './writable-server.js'
import { meansServerUnreachable, meansStorageUnavailable } from './unavailability.js'
import { MongoClient, MongoClientClosedError } from './peers.js'

/** What one store call gets to work with. */
export interface MongoWork {
  readonly db: Db
  readonly plants: Collection<PlantDocument>
  /**
   * Runs driver work bounded by the call's deadline: its signal aborts then, and the call is
   * answered then (see deadline.ts). A timer and an AbortController of its own: for the work
   * beside the insert, which the insert's own life bounds.
   */
  readonly within: <A>(work: (signal: AbortSignal) => Promise<A>) => Promise<A>
  /**
   * Inserts a plant's document, answered by this call's deadline at the latest, in one insert
   * with the documents other calls insert at the same moment (see insert-batches.ts).
   */
  readonly insert: (document: PlantDocument) => Promise<InsertResult>
}

/**
 * A lazily connected MongoDB client. Each call connects first when it must, so the service can
 * start while MongoDB is down and recovers by itself when it returns; each call is bounded by
 * the operation deadline.
 */
export interface MongoConnection {
  /**
   * Runs `work` within the operation deadline, or within `withinMs` when the caller has less time
   * left; a failure that means storage is unreachable, or that it refuses the service's
   * configuration (named in the Left), is a Left; any other is thrown.
   */
  readonly attempt: <A>(work: (on: MongoWork) => Promise<A>, withinMs?: number) => TE.TaskEither<StorageUnavailable, A>
  /**
   * Runs `work`; every failure is a Left (a readiness probe cannot tell more than "not ready"),
   * and so is a success while a configuration fault a store call met is held (see
   * MongoTimeouts.configurationFaultHeldMs).
   */
  readonly probe: <A>(work: (on: MongoWork) => Promise<A>) => TE.TaskEither<StorageUnavailable, A>
  /** Refuses new calls, waits for those in flight, then closes the client. */
  readonly close: () => Promise<void>
}

export interface MongoConnectionSettings {
  readonly uri: string
  readonly dbName: string
  readonly collectionName: string
  readonly timeouts: MongoTimeouts
  /** What every deadline and timer of the adapter's storage calls reads. */
  readonly clock: Clock
}

/**
 * The connection string or an option could not be understood, or names an option this adapter
 * cannot keep its promises with (refused-options.ts); nothing was opened.
 */
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
  pipe(
    E.tryCatch(
      () => new MongoClient(uri, clientOptionsFor(uri, timeouts)),
      (error): InvalidMongoSettings => invalidSettings(error instanceof Error ? error.message : String(error)),
    ),
    E.filterOrElse(
      (client) => refusedOptionsOf(client, timeouts.operationMs).length === 0,
      (client) => invalidSettings(refusedOptionsOf(client, timeouts.operationMs).join('; ')),
    ),
  )

const invalidSettings = (message: string): InvalidMongoSettings => ({ _tag: 'InvalidMongoSettings', message })

/** One client and the calls that run on it. */
interface ClientInUse {
  readonly client: MongoClient
  readonly db: Db
  readonly plants: Collection<PlantDocument>
  readonly batches: InsertBatches
  readonly inFlight: Set<Promise<unknown>>
  /** Whether the client has connected: after a success the driver's monitor keeps the topology. */
  readonly isConnected: () => boolean
  /** Connects the client. */
  readonly connect: () => Promise<void>
  /** Whether the driver knows a server it can send a write to now (a primary, a router, a standalone). */
  readonly writableServerKnown: () => boolean
}

const inUse = (client: MongoClient, settings: MongoConnectionSettings): ClientInUse => {
  const db = client.db(settings.dbName)
  let notWritable: string | undefined = notWritableStateOf([])
  client.on('topologyDescriptionChanged', ({ newDescription }: TopologyDescriptionChangedEvent) => {
    notWritable = notWritableStateOf(newDescription.servers.values())
  })
  // Connecting again after a failed attempt opens a fresh topology; once connected, the driver's
  // monitor follows the server going away and coming back (and the watchdog replaces the client
  // when it does not), so a connected client is not asked again: connect() costs a chain of
  // promises on every call.
  let isConnected = false
  const connect = async (): Promise<void> => {
    await client.connect()
    isConnected = true
  }
  const plants = db.collection<PlantDocument>(settings.collectionName)
  return {
    client,
    db,
    plants,
    batches: makeInsertBatches({
      clock: settings.clock,
      limits: insertBatchLimitsFor(client.options.maxPoolSize, settings.timeouts.operationMs),
      send: sendInsertInto(plants, writeConcernWithinFor(plants, settings.uri)),
      deadlinePassed,
    }),
    inFlight: new Set(),
    isConnected: () => isConnected,
    connect,
    writableServerKnown: () => notWritable === undefined,
  }
}

// The collection's write concern (the connection string's settings over the adapter's defaults)
// with the server's wait bounded by what each insert's deadline leaves, unless the string bounds
// that wait itself.
const writeConcernWithinFor = (plants: Collection<PlantDocument>, uri: string): WriteConcernWithin => {
  if (namesWriteConcernTimeout(uri)) return () => undefined
  const { w, journal } = plants.writeConcern ?? {}
  const base = { ...(w === undefined ? {} : { w }), ...(journal === undefined ? {} : { journal }) }
  return (msLeft) => ({ ...base, wtimeoutMS: writeConcernTimeoutWithin(msLeft) })
}

// Only a server that cannot be reached can leave the driver wedged: a deadline that passed while
// the driver knew a primary was a slow answer, and a fresh client would wait for it just the same.
const meansUnreachableFrom = (on: ClientInUse, error: unknown): boolean =>
  meansServerUnreachable(error) || (isDeadlineExceeded(error) && !on.writableServerKnown())

// The client is closed once the calls it carries have their answers (each within its deadline).
const closeAfterInFlight = async ({ client, inFlight }: ClientInUse): Promise<void> => {
  await Promise.allSettled([...inFlight])
  await client.close().catch(() => {})
}

const connectionOver = (first: MongoClient, settings: MongoConnectionSettings): MongoConnection => {
  let current = inUse(first, settings)
  const retiring = new Set<Promise<void>>()
  const watchdog = makeClientWatchdog(settings.timeouts.replaceClientAfterMs, settings.clock)
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
    const deadline = settings.clock.now() + deadlineMs
    const within = <B>(bounded: (signal: AbortSignal) => Promise<B>): Promise<B> => withinDeadline(settings.clock, deadline, bounded)
    const onWork: MongoWork = {
      db: on.db,
      plants: on.plants,
      within,
      insert: (document) => on.batches.insert(document, deadline),
    }
    // Connected, a call is its work alone: no timer of its own, as its insert answers by its deadline.
    const call = on.isConnected() ? work(onWork) : within(on.connect).then(() => work(onWork))
    on.inFlight.add(call)
    // Only the current client's calls speak for it: a late answer from a client already retired
    // must neither reset the fresh one's clock nor retire it.
    try {
      const result = await call
      if (on === current) watchdog.succeeded()
      return result
    } catch (error) {
      if (on === current && meansUnreachableFrom(on, error) && watchdog.failedUnreachable()) replaceClient()
      throw error
    } finally {
      on.inFlight.delete(call)
    }
  }

  // A configuration fault a store call met, kept for readiness (fault-hold.ts).
  const heldFault = makeFaultHold<StorageUnavailable>(settings.timeouts.configurationFaultHeldMs, settings.clock)

  const misconfigured = (error: unknown): StorageUnavailable | undefined => {
    const fault = configurationFaultIn(error)
    return fault === undefined ? undefined : storageMisconfigured(fault, error)
  }

  const attempt = <A>(work: (on: MongoWork) => Promise<A>, withinMs = Infinity): TE.TaskEither<StorageUnavailable, A> => async () => {
    // Not a time at all (NaN, from JavaScript): the caller's mistake, for its error boundary, not
    // an outage to retry (a deadline of NaN would pass after 1 ms).
    if (typeof withinMs !== 'number' || Number.isNaN(withinMs)) {
      throw new RangeError(`InsertOptions.withinMs must be a number of milliseconds, not ${String(withinMs)}`)
    }
    // A caller whose time is up is answered before anything is sent: a write sent now could land
    // after its 503.
    if (withinMs <= 0) return E.left(storageUnavailable(noTimeLeft()))
    try {
      const result = await run(Math.min(settings.timeouts.operationMs, withinMs), work)
      heldFault.succeeded()
      return E.right(result)
    } catch (error) {
      const fault = misconfigured(error)
      if (fault !== undefined) {
        heldFault.met(fault)
        return E.left(fault)
      }
      if (meansStorageUnavailable(error)) return E.left(storageUnavailable(error))
      throw error
    }
  }

  const probe = <A>(work: (on: MongoWork) => Promise<A>): TE.TaskEither<StorageUnavailable, A> => async () => {
    try {
      const result = await run(settings.timeouts.readinessMs, work)
      const held = heldFault.held()
      return held === undefined ? E.right(result) : E.left(held)
    } catch (error) {
      return E.left(misconfigured(error) ?? storageUnavailable(error))
    }
  }

  return {
    attempt,
    probe,
    close: () => {
      closing ??= Promise.all([closeAfterInFlight(current), ...retiring]).then(() => {})
      return closing
    },
  }
}
