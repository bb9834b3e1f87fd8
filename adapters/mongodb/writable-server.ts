import type { Db, Document, ServerDescription } from 'mongodb'
import { ReadPreference } from './peers.js'

/**
 * Readiness: asks the server a write would go to whether it can take one now (`hello`), and
 * throws NotWritableServer naming its state when it cannot. The server's own answer, not the
 * driver's monitor, decides: a monitor that polls hears of a step-down only at its next
 * heartbeat (10 s by default), while the server knows at once, so a step-down shows at the first
 * probe after it.
 */
export const checkWritable = async (db: Db, signal: AbortSignal): Promise<void> => {
  const hello = await db.command({ hello: 1 }, { readPreference: ReadPreference.primary, signal })
  const state = notWritableStateOf([{ address: typeof hello.me === 'string' ? hello.me : 'the server', type: serverTypeOf(hello) }])
  if (state !== undefined) throw new NotWritableServer(state, db.client.options.directConnection)
}

/**
 * A server's type from its `hello` reply, as the SDAM specification derives it: a router says
 * `isdbgrid`; a replica set's member names its set, and is primary only while it says it is
 * writable.
 */
export const serverTypeOf = (hello: Document): ServerDescription['type'] => {
  if (hello.ok !== 1) return 'Unknown'
  if (hello.isreplicaset === true) return 'RSGhost'
  if (hello.msg === 'isdbgrid') return 'Mongos'
  if (typeof hello.setName !== 'string') return 'Standalone'
  if (hello.hidden === true) return 'RSOther'
  if (hello.isWritablePrimary === true || hello.ismaster === true) return 'RSPrimary'
  if (hello.secondary === true) return 'RSSecondary'
  if (hello.arbiterOnly === true) return 'RSArbiter'
  return 'RSOther'
}

/**
 * Why none of these servers can take a write, in words for an operator; undefined when one can
 * (a replica set's primary, a mongos, a standalone, a load balancer).
 */
export const notWritableStateOf = (servers: Iterable<Pick<ServerDescription, 'address' | 'type'>>): string | undefined => {
  const states: string[] = []
  for (const { address, type } of servers) {
    if (WRITABLE.has(type)) return undefined
    states.push(`${address} ${STATES[type] ?? `is ${type}`}`)
  }
  return states.length === 0 ? 'no server is known yet' : states.join(', ')
}

const WRITABLE: ReadonlySet<string> = new Set(['RSPrimary', 'Mongos', 'Standalone', 'LoadBalancer'])

// The driver's server types (the SDAM specification's), as an operator would say them.
const STATES: Readonly<Record<string, string>> = {
  RSSecondary: 'is a secondary',
  RSArbiter: 'is an arbiter',
  RSOther: 'is not a primary (a hidden or delayed member, or one starting up)',
  RSGhost: 'is not a primary yet (its replica set is not initiated)',
  PossiblePrimary: 'may be a primary, not yet confirmed',
  Unknown: 'has not answered yet',
}

/**
 * A readiness probe answered by a server that cannot take a write. Through a replica set's
 * discovery that is a moment (a step-down under way: the driver finds the new primary); through
 * `directConnection=true` it lasts as long as that member is not primary, since a direct connection
 * never follows the primary elsewhere, which is the operator's to correct.
 */
export class NotWritableServer extends Error {
  constructor(
    state: string,
    readonly direct: boolean,
  ) {
    super(
      direct
        ? `connected directly (directConnection=true) to a member that cannot take writes: ${state}; a direct connection does not follow the primary, so name the replica set (replicaSet=...) without directConnection, or the primary itself`
        : `no writable primary answered: ${state}`,
    )
  }

  override get name(): string {
    return 'NotWritableServer'
  }
}
