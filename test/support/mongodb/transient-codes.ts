import { TRANSIENT_CATEGORIES, TRANSIENT_OUTSIDE_CATEGORIES } from '../../../adapters/mongodb/server-error-codes.js'
import { codesInCategories, serverErrorCode, type ServerErrorCode } from '../mongo-peer/error-codes.js'

/**
 * The categories of mongod's error_codes.yml whose codes must be answered as an outage whatever
 * else the adapter adds: the server's own word that a command may be sent again, the network,
 * a node not (or no longer) primary, shutting down, and interrupted operations.
 */
export const REQUIRED_TRANSIENT_CATEGORIES = ['RetriableError', 'NetworkError', 'NotPrimaryError', 'ShutdownError', 'Interruption']

/**
 * Every server code the adapter must call an outage: each code of its transient categories as the
 * copy of error_codes.yml lists them, then those it adds outside them (named as that copy names them).
 */
export const TRANSIENT_SERVER_CODES: ReadonlyArray<ServerErrorCode> = [
  ...codesInCategories(TRANSIENT_CATEGORIES),
  ...[...TRANSIENT_OUTSIDE_CATEGORIES.keys()].map((code) => {
    const entry = serverErrorCode(code)
    if (entry === undefined) throw new Error(`mongod has no error code ${code}`)
    return entry
  }),
]
