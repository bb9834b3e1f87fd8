import type { MongoClientOptions } from 'mongodb'

/** How long storage may take before the service answers 503 instead of waiting. */
export interface MongoTimeouts {
  /** The whole of one store call (connecting, selecting a server, the driver's retry, re-reads). */
  readonly operationMs: number
  /** How long the driver waits for a suitable server (a writable primary) to be known. */
  readonly serverSelectionMs: number
  /** How long opening one connection, with its handshake, may take. */
  readonly connectMs: number
  /**
   * How long calls may keep finding no server they can reach, with no success in between, before
   * the client is replaced by a fresh one (a client left wedged by the driver cannot stay so). A
   * server that answers slowly is not unreachable: a fresh client would wait for it just the same.
   */
  readonly replaceClientAfterMs: number
  /**
   * How long a readiness probe waits for a ping. Shorter than a store call: an orchestrator's
   * probe gives up after a second by default, and a server the driver is still waiting to find
   * again is not ready, though a write could wait for it.
   */
  readonly readinessMs: number
  /**
   * How long readiness keeps reporting a configuration fault a store call met (a missing
   * privilege, a write concern the replica set cannot satisfy: faults a ping does not meet),
   * unless a store call succeeds first. Then the service is tried again.
   */
  readonly configurationFaultHeldMs: number
}

export const DEFAULT_MONGO_TIMEOUTS: MongoTimeouts = {
  operationMs: 5000,
  serverSelectionMs: 3000,
  connectMs: 3000,
  replaceClientAfterMs: 10_000,
  readinessMs: 1000,
  configurationFaultHeldMs: 30_000,
}

/**
 * Fills in the timeouts not given: server selection, connection and readiness default to at most
 * the whole; the client is replaced after two deadlines' worth of unreachability.
 */
export const resolveTimeouts = (given: Partial<MongoTimeouts> = {}): MongoTimeouts => {
  const operationMs = given.operationMs ?? DEFAULT_MONGO_TIMEOUTS.operationMs
  return {
    operationMs,
    serverSelectionMs: given.serverSelectionMs ?? Math.min(DEFAULT_MONGO_TIMEOUTS.serverSelectionMs, operationMs),
    connectMs: given.connectMs ?? Math.min(DEFAULT_MONGO_TIMEOUTS.connectMs, operationMs),
    replaceClientAfterMs: given.replaceClientAfterMs ?? 2 * operationMs,
    readinessMs: given.readinessMs ?? Math.min(DEFAULT_MONGO_TIMEOUTS.readinessMs, operationMs),
    configurationFaultHeldMs: given.configurationFaultHeldMs ?? DEFAULT_MONGO_TIMEOUTS.configurationFaultHeldMs,
  }
}

/**
 * How long MongoDB may wait for an insert's write concern, given the time its life has left (until
 * the latest deadline among its creates, see insert-batches.ts): nearly all of it, so that a
 * majority that is slow but comes before the deadline is a 200, not a write concern error for a
 * plant that is stored. The hundredth kept back is for what comes before and after the wait
 * (opening a connection when the pool has no idle one; the reply's way back, reading it): the
 * server's own answer, a write concern error that leaves the connection in
 * the pool, comes before the deadline cuts the reply, which would cost the connection (the driver
 * destroys it; in production a new TCP and TLS handshake and an authentication for the next
 * call). Never 0, which would have the server wait for ever.
 */
export const writeConcernTimeoutWithin = (msLeft: number): number => Math.max(1, Math.floor((msLeft * 99) / 100))

/**
 * Whether the connection string bounds the server's wait for the write concern itself
 * (`wtimeoutMS`, or its old name `wtimeout`): then that bound stands for every insert, as the
 * operator asked, and the adapter sets none of its own.
 */
export const namesWriteConcernTimeout = (uri: string): boolean => {
  const named = optionNamesIn(uri)
  return named.has('wtimeoutms') || named.has('wtimeout')
}

/**
 * The driver options this adapter asks for, each only where the connection string does not say
 * otherwise (the driver lets options given in code override the string, and the operator's
 * string must win): acknowledged writes are majority-committed and journaled, writes are retried
 * once, and every wait is bounded (selection and connecting here, the rest by the call's
 * deadline, and the server's wait for the write concern by each insert's, see
 * writeConcernTimeoutWithin). Options that cannot keep the
 * adapter's promises are refused, not overridden (refused-options.ts).
 */
export const clientOptionsFor = (uri: string, timeouts: MongoTimeouts): MongoClientOptions => {
  const named = optionNamesIn(uri)
  const unless = <O extends object>(keys: ReadonlyArray<string>, options: O): O | Record<string, never> =>
    keys.some((key) => named.has(key.toLowerCase())) ? {} : options
  // Each setting of the write concern on its own: the driver folds the string's settings into the
  // code's field by field, so a string naming one of them changes that one alone.
  const writeConcern = {
    ...unless(['w'], { w: 'majority' as const }),
    ...unless(['journal', 'j', 'fsync'], { journal: true }),
  }
  return {
    // int64 values, `_id` included, come back as bigint: exact over the whole range.
    useBigInt64: true,
    ...(Object.keys(writeConcern).length === 0 ? {} : { writeConcern }),
    ...unless(['retryWrites'], { retryWrites: true }),
    ...unless(['serverSelectionTimeoutMS'], { serverSelectionTimeoutMS: timeouts.serverSelectionMs }),
    ...unless(['connectTimeoutMS'], { connectTimeoutMS: timeouts.connectMs }),
    // No waitQueueTimeoutMS and no socketTimeoutMS: every operation carries its deadline's abort
    // signal, which ends a wait for a free connection and a reply that never comes (the driver
    // closes that socket), as those timeouts would; each of them also costs the driver a timer on
    // every operation (docs/performance.md has the profiles).
    ...unless(['appName'], { appName: 'plant-store' }),
  }
}

// Connection string options are case-insensitive; `mongodb+srv` TXT records may only add
// authSource, replicaSet and loadBalanced, none of which is decided here.
const optionNamesIn = (uri: string): ReadonlySet<string> => {
  const query = uri.indexOf('?')
  if (query < 0) return new Set()
  return new Set([...new URLSearchParams(uri.slice(query + 1)).keys()].map((key) => key.toLowerCase()))
}
