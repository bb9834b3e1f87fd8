import type { ServerDescription } from 'mongodb'

/**
 * Why none of the servers the driver knows can take a write, in words for an operator; undefined
 * when one can (a replica set's primary, a mongos, a standalone, a load balancer). A ping is
 * answered by any member, so readiness asks this too: ready means a write can go through.
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
