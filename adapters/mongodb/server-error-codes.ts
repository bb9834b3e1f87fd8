// The server error codes this adapter decides on, by code and by the name mongod gives it in its
// error_codes.yml. A copy of that file's codes and categories is kept with the tests
// (test/support/mongo-peer/error_codes.yml), and test/unit/adapters/mongodb/server-error-codes.test.ts
// holds these tables to it: a code the server adds to a category below fails that test until it
// is listed here.

/**
 * The categories of error_codes.yml whose every code means "not now": the network, a node that is
 * not (or no longer) primary, shutting down, an interrupted operation, a time limit, an overloaded
 * server, a router whose view of the shards is stale, or the server's own word that the command
 * may be sent again (RetriableError).
 */
export const TRANSIENT_CATEGORIES = [
  'RetriableError',
  'NetworkError',
  'NetworkTimeoutError',
  'NotPrimaryError',
  'ShutdownError',
  'Interruption',
  'ExceededTimeLimitError',
  'SystemOverloadedError',
  'StaleShardVersionError',
] as const

/** Every code of the TRANSIENT_CATEGORIES. */
export const CODES_IN_TRANSIENT_CATEGORIES: ReadonlyMap<number, string> = new Map([
  [6, 'HostUnreachable'],
  [7, 'HostNotFound'],
  [24, 'LockTimeout'],
  [50, 'MaxTimeMSExpired'],
  [89, 'NetworkTimeout'],
  [91, 'ShutdownInProgress'],
  [134, 'ReadConcernMajorityNotAvailableYet'],
  [150, 'StaleEpoch'],
  [189, 'PrimarySteppedDown'],
  [202, 'NetworkInterfaceExceededTimeLimit'],
  [237, 'CursorKilled'],
  [262, 'ExceededTimeLimit'],
  [279, 'ClientDisconnect'],
  [281, 'TransactionCoordinatorSteppingDown'],
  [282, 'TransactionCoordinatorReachedAbortDecision'],
  [290, 'TransactionExceededLifetimeLimitSeconds'],
  [317, 'ConnectionPoolExpired'],
  [333, 'ServiceExecutorInShutdown'],
  [355, 'InterruptedDueToStorageChange'],
  [358, 'InternalTransactionNotSupported'],
  [384, 'ConnectionError'],
  [402, 'ResourceExhausted'],
  [406, 'MigrationBlockingOperationCoordinatorCleaningUp'],
  [407, 'PooledConnectionAcquisitionExceededTimeLimit'],
  [412, 'UpdatesStillPending'],
  [433, 'AdmissionQueueOverflow'],
  [449, 'RateLimitExceeded'],
  [450, 'PooledConnectionAcquisitionRejected'],
  [453, 'InterruptedDueToReshardingCriticalSection'],
  [462, 'IngressRequestRateLimitExceeded'],
  [9001, 'SocketException'],
  [10107, 'NotWritablePrimary'],
  [11600, 'InterruptedAtShutdown'],
  [11601, 'Interrupted'],
  [11602, 'InterruptedDueToReplStateChange'],
  [13388, 'StaleConfig'],
  [13435, 'NotPrimaryNoSecondaryOk'],
  [13436, 'NotPrimaryOrSecondary'],
  [46841, 'ClientMarkedKilled'],
  [50915, 'BackupCursorOpenConflictWithCheckpoint'],
  [91331, 'RetriableRemoteCommandFailure'],
  [10045600, 'InterruptedDueToFCVChange'],
])

/**
 * Codes in none of those categories that still mean "not now", each for its reason: a lost race
 * for a lock or a document, a node not ready or between primaries, a write concern that timed
 * out, a full session cache, a retry whose history the server no longer has (sent again it is a
 * new write, which finds the id taken and reads what stands there).
 */
export const TRANSIENT_OUTSIDE_CATEGORIES: ReadonlyMap<number, string> = new Map([
  [46, 'LockBusy'],
  [64, 'WriteConcernTimeout'],
  [94, 'NotYetInitialized'],
  [112, 'WriteConflict'],
  [117, 'ConflictingOperationInProgress'],
  [133, 'FailedToSatisfyReadPreference'],
  [216, 'ElectionInProgress'],
  [217, 'IncompleteTransactionHistory'],
  [249, 'StaleDbVersion'],
  [261, 'TooManyLogicalSessions'],
  [365, 'TemporarilyUnavailable'],
])

/**
 * Codes that say the service's own configuration is refused: retrying cannot help until an
 * operator changes it. Each with what to tell that operator.
 */
export const CONFIGURATION_FAULT_CODES: ReadonlyMap<number, { readonly name: string; readonly fault: string }> = new Map([
  [13, { name: 'Unauthorized', fault: 'the MongoDB user lacks a privilege the service needs' }],
  [18, { name: 'AuthenticationFailed', fault: 'MongoDB refused the credential of the connection string' }],
  [79, { name: 'UnknownReplWriteConcern', fault: 'the write concern names a mode the replica set does not define' }],
  [100, { name: 'UnsatisfiableWriteConcern', fault: 'the replica set cannot satisfy the write concern' }],
  [214, { name: 'AuthenticationRestrictionUnmet', fault: "the MongoDB user's authentication restrictions refuse this client" }],
  [334, { name: 'MechanismUnavailable', fault: 'MongoDB does not offer the authentication mechanism asked for' }],
])

/** The codes of a shutting-down or not-primary node, or a network failure the server saw: the server cannot serve writes. */
export const UNREACHABLE_CATEGORIES = ['NetworkError', 'NotPrimaryError', 'ShutdownError'] as const

/** Every code of the UNREACHABLE_CATEGORIES. */
export const CODES_IN_UNREACHABLE_CATEGORIES: ReadonlySet<number> = new Set([
  6, 7, 89, 91, 189, 317, 333, 384, 9001, 10107, 11600, 11602, 13435, 13436,
])
