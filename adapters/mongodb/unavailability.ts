import { configurationFaultIn } from './configuration-fault.js'
import { isDeadlineExceeded } from './deadline.js'
import { causesOf } from './error-causes.js'
import { NotWritableServer } from './writable-server.js'
import {
  CODES_IN_TRANSIENT_CATEGORIES,
  CODES_IN_UNREACHABLE_CATEGORIES,
  TRANSIENT_OUTSIDE_CATEGORIES,
} from './server-error-codes.js'
import { MongoClientClosedError, MongoError, MongoErrorLabel, MongoNetworkError, MongoNetworkTimeoutError, MongoNotConnectedError, MongoOperationTimeoutError, MongoServerClosedError, MongoServerSelectionError, MongoStalePrimaryError, MongoTopologyClosedError, MongoWriteConcernError } from './peers.js'

/**
 * Whether a failure means "MongoDB cannot be reached, or did not answer in time, or asked to be
 * asked again": the request may succeed when retried later, so the domain reports it as
 * StorageUnavailable (HTTP 503). This is the one place that decides. A configuration fault (see
 * configurationFaultIn) is not one, whatever retry label the driver gave it; anything else (a
 * duplicate key, a document this adapter cannot read) is not decided here.
 */
export const meansStorageUnavailable = (error: unknown): boolean =>
  configurationFaultIn(error) === undefined && causesOf(error).some(isTransient)

/**
 * Whether a failure means that no server able to take a write could be reached: the network, no
 * primary found in time, a node that is not primary or is shutting down. A server that is there
 * but slow (a reply later than the deadline, a time limit, an overloaded or busy node) is not
 * unreachable, and neither is a deadline that passed while the driver waited for a reply.
 */
export const meansServerUnreachable = (error: unknown): boolean =>
  configurationFaultIn(error) === undefined && causesOf(error).some(isUnreachable)

const isTransient = (cause: unknown): boolean =>
  isDeadlineExceeded(cause) ||
  DRIVER_UNAVAILABLE.some((kind) => cause instanceof kind) ||
  isSocketFailure(cause) ||
  (cause instanceof MongoError &&
    (isTransientCode(Number(cause.code)) ||
      TRANSIENT_LABELS.some((label) => cause.hasErrorLabel(label)) ||
      UNEXPORTED_POOL_ERRORS.has(cause.name)))

const isTransientCode = (code: number): boolean =>
  CODES_IN_TRANSIENT_CATEGORIES.has(code) || TRANSIENT_OUTSIDE_CATEGORIES.has(code)

const isUnreachable = (cause: unknown): boolean =>
  (cause instanceof MongoNetworkError && !isReplyTimeout(cause)) ||
  UNREACHABLE.some((kind) => cause instanceof kind) ||
  isSocketFailure(cause) ||
  (cause instanceof MongoError && CODES_IN_UNREACHABLE_CATEGORIES.has(Number(cause.code)))

// A socket timeout on an established connection is a server too slow to answer, not one gone;
// one before the handshake is a server that could not be reached (the driver marks it so, on a
// field its declarations leave out).
const isReplyTimeout = (error: MongoNetworkError): boolean =>
  error instanceof MongoNetworkTimeoutError && (error as { beforeHandshake?: boolean }).beforeHandshake !== true

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

// The driver's errors for a server that cannot be found or used, and a readiness probe's for a
// server found that cannot take writes.
const UNREACHABLE = [
  NotWritableServer,
  MongoServerSelectionError, // no suitable server (no primary) within serverSelectionTimeoutMS
  MongoStalePrimaryError,
  MongoServerClosedError,
  MongoNotConnectedError,
]

const DRIVER_UNAVAILABLE = [
  ...UNREACHABLE,
  MongoNetworkError, // refused, reset or closed sockets, socket timeouts, cleared pools
  MongoOperationTimeoutError,
  MongoWriteConcernError, // the write was not acknowledged as asked, even after the driver's retry
  MongoTopologyClosedError,
  MongoClientClosedError, // the service is shutting down
]

const TRANSIENT_LABELS = [
  MongoErrorLabel.RetryableWriteError,
  MongoErrorLabel.SystemOverloadedError,
  MongoErrorLabel.TransientTransactionError,
  MongoErrorLabel.ResetPool,
]

// The connection pool's own errors are not exported by the driver; their names are stable.
const UNEXPORTED_POOL_ERRORS = new Set(['MongoWaitQueueTimeoutError', 'MongoPoolClosedError'])
