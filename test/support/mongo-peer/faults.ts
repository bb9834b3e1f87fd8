// Faults the peer can be told to show, each for the next commands of given names. What a fault
// answers mirrors what mongod answers in that situation (see each constructor).
import { Long, type Document } from 'bson'
import type { DocumentRefusal, Interruption } from './commands.js'
import { labelledCommandError, labelsFor } from './errors.js'

export type Fault =
  /**
   * Answer this error instead of running the command; with `baseBackoffMS`, an overloaded
   * server's hint of how long to back off before retrying.
   */
  | { readonly kind: 'error'; readonly code: number; readonly codeName: string; readonly errmsg: string; readonly baseBackoffMS?: number }
  /** Run the command, then answer with this writeConcernError added to its reply. */
  | { readonly kind: 'writeConcernError'; readonly code: number; readonly codeName: string; readonly errmsg: string }
  /** Close the socket before the command runs: nothing is written, no reply comes. */
  | { readonly kind: 'dropBeforeRun' }
  /**
   * Run the command, then close the socket instead of replying: the write is kept, no reply comes.
   * Its writes reach a majority after `replicationLagMs` (0 when not given).
   */
  | { readonly kind: 'dropAfterRun'; readonly replicationLagMs?: number }
  /** Run the command, then wait this long before replying: a slow answer, or a slow way back. */
  | { readonly kind: 'delayReply'; readonly ms: number }
  /**
   * Receive the command, wait this long, then run it and reply: a slow primary (a full disk
   * queue, a lock). It runs even if its client has gone meanwhile, as mongod does not stop an
   * insert whose client closed its connection.
   */
  | { readonly kind: 'delayApply'; readonly ms: number }
  /**
   * The command reaches the server this long after it was sent (a slow way in): it runs then,
   * whatever its client did meanwhile, and the commands after it on its connection wait for it.
   */
  | { readonly kind: 'delayRequest'; readonly ms: number }
  /**
   * Apply the first `interruption.afterDocuments` documents of an insert, then fail the command
   * as a whole, as an insert interrupted part-way (a step-down, a killOp) fails.
   */
  | { readonly kind: 'interrupt'; readonly interruption: Interruption }
  /** Writes of the command reach a majority only after this long (see the insert handler). */
  | { readonly kind: 'replicationLag'; readonly ms: number }
  /** Run the command, refusing the documents `refusal` picks one by one (see the insert handler). */
  | { readonly kind: 'refuseDocuments'; readonly refusal: DocumentRefusal }

/**
 * mongod's answer on a node that is no longer primary (code 10107), e.g. during an election. A
 * retryable write gets the RetryableWriteError label from the server (4.4+), so the driver
 * retries it once on the new primary.
 */
export const notWritablePrimary = (): Fault => ({
  kind: 'error',
  code: 10107,
  codeName: 'NotWritablePrimary',
  errmsg: 'not primary',
})

/**
 * mongod's write error for a document its collection's validator rejects (code 121): that
 * document alone is refused, the others of the insert are written (with `ordered: false`).
 */
export const documentValidationFailure = (refuses: (document: Document) => boolean): Fault => ({
  kind: 'refuseDocuments',
  refusal: { code: 121, errmsg: 'Document failed validation', refuses },
})

/** A write that reached the primary but not a majority within wtimeout (code 64); not retryable. */
export const writeConcernTimedOut = (): Fault => ({
  kind: 'writeConcernError',
  code: 64,
  codeName: 'WriteConcernTimeout',
  errmsg: 'waiting for replication timed out',
})

/** A write applied while the primary shuts down (code 91): labelled retryable by the server. */
export const shutdownDuringWriteConcern = (): Fault => ({
  kind: 'writeConcernError',
  code: 91,
  codeName: 'ShutdownInProgress',
  errmsg: 'Replication is being shut down',
})

/**
 * mongod refusing a command because it is overloaded (IngressRequestRateLimitExceeded, 462, in the
 * SystemOverloadedError and RetriableError categories): labelled SystemOverloadedError and
 * RetryableError, on which the driver backs off and retries, and for a retryable write
 * RetryableWriteError and NoWritesPerformed. `baseBackoffMS`, when given, is the server's base for
 * the driver's back-off (the driver's own is 100 ms).
 */
export const overloaded = (baseBackoffMS?: number): Fault => ({
  kind: 'error',
  code: 462,
  codeName: 'IngressRequestRateLimitExceeded',
  errmsg: 'Rate limiter rejected the request',
  ...(baseBackoffMS === undefined ? {} : { baseBackoffMS }),
})

/**
 * An insert interrupted after applying `afterDocuments` of its documents: the rest are not
 * applied and the command fails as a whole with `code` (11602 InterruptedDueToReplStateChange, a
 * step-down, is labelled for the driver's retry; 11601 Interrupted, a killOp, is not).
 */
export const interruptedInsert = (afterDocuments: number, code: 11601 | 11602 = 11602): Fault => ({
  kind: 'interrupt',
  interruption:
    code === 11602
      ? { afterDocuments, code, codeName: 'InterruptedDueToReplStateChange', errmsg: 'operation was interrupted because a node stepped down' }
      : { afterDocuments, code, codeName: 'Interrupted', errmsg: 'operation was interrupted' },
})

/** Any error mongod answers instead of running a command, by its code and name (error_codes.yml). */
export const serverError = (code: number, codeName: string, errmsg = `${codeName} (mongo-peer fault)`): Fault => ({
  kind: 'error',
  code,
  codeName,
  errmsg,
})

/**
 * Server errors that mean "not now, try again" though mongod does not label them for a retry
 * (none is in error_codes.yml's RetriableError category): a lost race for a document or a lock,
 * an interrupted operation. Each is answered as mongod answers it.
 */
export const TRANSIENT_SERVER_ERRORS: ReadonlyArray<{ readonly code: number; readonly codeName: string; readonly errmsg: string }> = [
  { code: 112, codeName: 'WriteConflict', errmsg: 'Write conflict during plan execution and yielding is disabled.' },
  { code: 11601, codeName: 'Interrupted', errmsg: 'operation was interrupted' },
  { code: 24, codeName: 'LockTimeout', errmsg: 'Unable to acquire IX lock on database within 5ms' },
]

/** The error reply of an `error` fault (the command not run), labelled as mongod labels it for this command. */
export const errorReply = (fault: Extract<Fault, { kind: 'error' }>, command: Document): Document => ({
  ...labelledCommandError(fault.code, fault.codeName, fault.errmsg, command, false),
  // An int64 on the wire, as mongod sends it.
  ...(fault.baseBackoffMS === undefined ? {} : { baseBackoffMS: Long.fromNumber(fault.baseBackoffMS) }),
})

/** A reply with the writeConcernError of a `writeConcernError` fault added, labelled likewise. */
export const withWriteConcernError = (
  reply: Document,
  fault: Extract<Fault, { kind: 'writeConcernError' }>,
  command: Document,
): Document => ({
  ...reply,
  writeConcernError: { code: fault.code, codeName: fault.codeName, errmsg: fault.errmsg },
  ...labelsFor(fault.code, command, true),
})

interface Rule {
  readonly commands: ReadonlySet<string>
  readonly fault: Fault
  readonly where: (command: Document) => boolean
  remaining: number
}

/**
 * Whether a command was sent by an operation of the client's (which runs in a session, and so
 * carries an `lsid`), not by the driver's own monitoring or connection handshakes: a fault for
 * readiness's `hello` is shown to it alone, and the monitor goes on seeing the server as it is.
 */
export const sentByAnOperation = (command: Document): boolean => command.lsid !== undefined

/** The faults waiting for commands, first told, first shown. */
export const makeFaultPlan = () => {
  let rules: Rule[] = []
  return {
    /**
     * Shows `fault` on the next `times` commands named in `commands` (every one, by default) for
     * which `where` holds (every one, by default).
     */
    inject: (commands: string | ReadonlyArray<string>, fault: Fault, times = Infinity, where: (command: Document) => boolean = () => true): void => {
      rules.push({ commands: new Set(typeof commands === 'string' ? [commands] : commands), fault, where, remaining: times })
    },
    /** Forgets every fault: the peer behaves again. */
    clear: (): void => {
      rules = []
    },
    /** The fault for a command about to run, if one waits for it; counts it as shown. */
    take: (commandName: string, command: Document): Fault | undefined => {
      const rule = rules.find((candidate) => candidate.remaining > 0 && candidate.commands.has(commandName) && candidate.where(command))
      if (rule === undefined) return undefined
      rule.remaining -= 1
      rules = rules.filter((candidate) => candidate.remaining > 0)
      return rule.fault
    },
  }
}
export type FaultPlan = ReturnType<typeof makeFaultPlan>
