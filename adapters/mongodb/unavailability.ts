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
 * Whether a failure means "MongoDB cannot be reached, or did not answer in time": the request
 * may succeed when retried later, so the domain reports it as StorageUnavailable (HTTP 503).
 * Anything else (a duplicate key, a refused credential, a document this adapter cannot read) is
 * not decided here.
 */
export const meansStorageUnavailable = (error: unknown): boolean =>
  isDeadlineExceeded(error) ||
  UNREACHABLE.some((kind) => error instanceof kind) ||
  isSocketGone(error) ||
  (error instanceof MongoError &&
    (TRANSIENT_CODES.has(Number(error.code)) ||
      TRANSIENT_LABELS.some((label) => error.hasErrorLabel(label)) ||
      UNEXPORTED_POOL_ERRORS.has(error.name)))

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

// Server error codes that say a node is stepping down, shutting down, not primary, or out of
// time; the driver retries a retryable write once on these before the error reaches us.
const TRANSIENT_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  64, // WriteConcernFailed (WriteConcernTimeout from 8.1)
  89, // NetworkTimeout
  91, // ShutdownInProgress
  133, // FailedToSatisfyReadPreference
  134, // ReadConcernMajorityNotAvailableYet
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
])

const TRANSIENT_LABELS = [MongoErrorLabel.RetryableWriteError, MongoErrorLabel.SystemOverloadedError]

// The driver lets a write on a socket the server has just closed escape unwrapped, as Node's own
// EPIPE ("This socket has been ended by the other party") rather than a MongoNetworkError.
const isSocketGone = (error: unknown): boolean =>
  error instanceof Error && SOCKET_GONE_CODES.has(String((error as { code?: unknown }).code))

const SOCKET_GONE_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED'])

// The connection pool's own errors are not exported by the driver; their names are stable.
const UNEXPORTED_POOL_ERRORS = new Set(['MongoWaitQueueTimeoutError', 'MongoPoolClosedError'])
