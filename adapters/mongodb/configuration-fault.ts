import { MongoError } from 'mongodb'
import { causesOf } from './error-causes.js'
import { CONFIGURATION_FAULT_CODES } from './server-error-codes.js'
import { NotWritableServer } from './writable-server.js'

/**
 * What an operator must correct when MongoDB refuses the service's own configuration (a refused
 * credential, a missing privilege, a write concern the replica set cannot satisfy), in words for
 * the log and /readyz; undefined when `error` says nothing of the kind. Such a failure is not an
 * outage: the driver may label a refused credential for a retry (`ResetPool`), but asking again
 * gets the same answer until the configuration changes.
 */
export const configurationFaultIn = (error: unknown): string | undefined => {
  for (const cause of causesOf(error)) {
    if (cause instanceof NotWritableServer && cause.direct) return cause.message
    if (!(cause instanceof MongoError)) continue
    const code = Number(cause.code)
    const known = CONFIGURATION_FAULT_CODES.get(code)
    if (known !== undefined) return `${known.fault} (${known.name}, ${code})`
  }
  return undefined
}
