import type { Document } from 'mongodb'

/**
 * Why the server that answered `hello` cannot take a write, in words for an operator; undefined
 * when it can (a replica set's primary, a mongos, a standalone). A ping goes through on any of
 * them, so readiness asks this instead: ready means a write can go through.
 */
export const notWritableStateOf = (hello: Document): string | undefined => {
  if (hello.isWritablePrimary === true || hello.ismaster === true) return undefined
  const member = typeof hello.me === 'string' ? hello.me : 'the member connected to'
  if (hello.arbiterOnly === true) return `${member} is an arbiter`
  if (hello.secondary === true) return `${member} is a secondary`
  return `${member} is not a primary (starting up, recovering or stepping down)`
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
