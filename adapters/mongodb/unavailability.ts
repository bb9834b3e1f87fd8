import {
  MongoClientClosedError,
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerSelectionError,
  MongoStalePrimaryError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from 'mongodb'
import { isDeadlineExceeded } from './deadline.js'

/**
 * Whether a failure means "MongoDB cannot be reached, or did not answer in time, or asked to be
 * asked again": the request may succeed when retried later, so the domain reports it as
 * StorageUnavailable (HTTP 503). This is the one place that decides. Anything else (a duplicate
 * key, a refused credential, a document this adapter cannot read) is not decided here.
 */
export const meansStorageUnavailable = (error: unknown): boolean =>
  causesOf(error).some(
    (cause) =>
      isDeadlineExceeded(cause) ||
      UNREACHABLE.some((kind) => cause instanceof kind) ||
      isSocketFailure(cause) ||
      (cause instanceof MongoError &&
        (TRANSIENT_CODES.has(Number(cause.code)) ||
          TRANSIENT_LABELS.some((label) => cause.hasErrorLabel(label)) ||
          UNEXPORTED_POOL_ERRORS.has(cause.name))),
  )

// An error and the causes it wraps (bounded: a cycle of causes must not hang a request).
const causesOf = (error: unknown): ReadonlyArray<unknown> => {
  const chain: unknown[] = []
  for (let cause = error; cause !== undefined && cause !== null && chain.length < 8; ) {
    if (chain.includes(cause)) break
    chain.push(cause)
    cause = cause instanceof Error ? cause.cause : undefined
  }
  return chain
}

// The driver (7.9) lets some socket errors out as they are, not as a MongoNetworkError: a write
// on a connection the server has just closed fails with Node's own `EPIPE` ("This socket has
// been ended by the other party") or `ECONNRESET`. They are the network, not a bug.
const isSocketFailure = (error: unknown): boolean =>
  error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' &&
  SOCKET_ERROR_CODES.has((error as NodeJS.ErrnoException).code ?? '')

const SOCKET_ERROR_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ENOTCONN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ERR_SOCKET_CLOSED',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
])

const UNREACHABLE = [
  MongoNetworkError, // refused, reset or closed sockets, socket timeouts, cleared pools
  MongoServerSelectionError, // no suitable server (no primary) within serverSelectionTimeoutMS
  MongoOperationTimeoutError,
  MongoWriteConcernError, // the write was not acknowledged as asked, even after the driver's retry
  MongoStalePrimaryError,
  MongoTopologyClosedError,
  MongoServerClosedError,
  MongoNotConnectedError,
  MongoClientClosedError, // the service is shutting down
]

// Server error codes (mongod's error_codes.yml) that say a node is stepping down, shutting down,
// not primary, interrupted, busy, overloaded, out of time, or that the write lost a race for a
// lock or a document and may be sent again. The driver retries a retryable write once on some of
// these before the error reaches us.
const TRANSIENT_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  24, // LockTimeout
  46, // LockBusy
  50, // MaxTimeMSExpired
  64, // WriteConcernFailed (WriteConcernTimeout from 8.1)
  89, // NetworkTimeout
  91, // ShutdownInProgress
  94, // NotYetInitialized
  112, // WriteConflict
  117, // ConflictingOperationInProgress
  133, // FailedToSatisfyReadPreference
  134, // ReadConcernMajorityNotAvailableYet
  150, // StaleEpoch
  189, // PrimarySteppedDown
  202, // NetworkInterfaceExceededTimeLimit
  216, // ElectionInProgress
  249, // StaleDbVersion
  262, // ExceededTimeLimit
  317, // ConnectionPoolExpired
  355, // InterruptedDueToStorageChange
  365, // TemporarilyUnavailable
  384, // ConnectionError
  402, // ResourceExhausted
  407, // PooledConnectionAcquisitionExceededTimeLimit
  433, // AdmissionQueueOverflow
  449, // RateLimitExceeded
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11601, // Interrupted
  11602, // InterruptedDueToReplStateChange
  13388, // StaleConfig
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
])

const TRANSIENT_LABELS = [
  MongoErrorLabel.RetryableWriteError,
  MongoErrorLabel.SystemOverloadedError,
  MongoErrorLabel.TransientTransactionError,
  MongoErrorLabel.ResetPool,
]

// The connection pool's own errors are not exported by the driver; their names are stable.
const UNEXPORTED_POOL_ERRORS = new Set(['MongoWaitQueueTimeoutError', 'MongoPoolClosedError'])
