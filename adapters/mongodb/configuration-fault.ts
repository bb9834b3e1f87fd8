import { causesOf } from './error-causes.js'
import { CONFIGURATION_FAULT_CODES } from './server-error-codes.js'
import { NotWritableServer } from './writable-server.js'
import { MongoCompatibilityError, MongoError } from './peers.js'

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
    if (cause instanceof MongoCompatibilityError) return `the driver cannot work with this server as the connection string describes it: ${compatibilityFault(cause)}`
    if (!(cause instanceof MongoError)) continue
    const code = Number(cause.code)
    const known = CONFIGURATION_FAULT_CODES.get(code)
    if (known !== undefined) return `${known.fault} (${known.name}, ${code})`
  }
  return undefined
}

// The driver's words, with what to change where it is the connection string: `loadBalanced=true`
// with no load balancer in front of MongoDB (the handshake's reply has no serviceId), or a server
// older than the driver supports.
const compatibilityFault = (error: MongoCompatibilityError): string =>
  /load balancing mode/.test(error.message)
    ? `${error.message} (loadBalanced=true asks for a load balancer in front of mongos; leave it out to connect to the servers themselves)`
    : error.message
