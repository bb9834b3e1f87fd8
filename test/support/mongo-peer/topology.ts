// What the peer says of itself in `hello`: primary or secondary, its election term, and its
// topologyVersion (a process id and a counter, after mongod's), which a client that streams
// `hello` waits on: mongod answers an awaitable `hello` when the counter moves, or when the wait
// the client allowed has passed.
import { Long, ObjectId } from 'bson'
import { setTimeout as sleep } from 'node:timers/promises'

export type MemberState = 'primary' | 'secondary'

export interface TopologyVersion {
  readonly processId: ObjectId
  readonly counter: Long
}

export interface PeerTopology {
  readonly state: () => MemberState
  readonly electionTerm: () => number
  readonly topologyVersion: () => TopologyVersion
  /** Resolves once the topology is not `known` (at once if it is not now), after `ms`, or when `signal` aborts. */
  readonly changeFrom: (known: unknown, ms: number, signal: AbortSignal) => Promise<void>
  /** An election: the term changes, and every client streaming `hello` is told. */
  readonly setElectionTerm: (term: number) => void
  readonly becomePrimary: () => void
  /** A step-down: secondary from now on, and every client streaming `hello` is told. */
  readonly becomeSecondary: () => void
  /** A new process: a new process id, its counter from 0, the next election term, secondary until it wins it. */
  readonly restart: () => void
}

export const makePeerTopology = (): PeerTopology => {
  let state: MemberState = 'primary'
  let electionTerm = 1
  let processId = new ObjectId()
  let counter = 0
  const waiting = new Set<() => void>()
  const changed = (): void => {
    counter += 1
    for (const wake of [...waiting]) wake()
  }
  const topologyVersion = (): TopologyVersion => ({ processId, counter: Long.fromNumber(counter) })
  const isCurrent = (known: unknown): boolean => {
    if (typeof known !== 'object' || known === null) return false
    const { processId: knownProcess, counter: knownCounter } = known as Partial<TopologyVersion>
    return knownProcess instanceof ObjectId && knownProcess.equals(processId) && Number(knownCounter) === counter
  }
  return {
    state: () => state,
    electionTerm: () => electionTerm,
    topologyVersion,
    changeFrom: async (known, ms, signal) => {
      if (!isCurrent(known)) return
      const timeout = new AbortController()
      const abort = () => timeout.abort()
      signal.addEventListener('abort', abort, { once: true })
      waiting.add(abort)
      try {
        await sleep(ms, undefined, { signal: timeout.signal }).catch(() => {})
      } finally {
        waiting.delete(abort)
        signal.removeEventListener('abort', abort)
      }
    },
    setElectionTerm: (term) => {
      electionTerm = term
      changed()
    },
    becomePrimary: () => {
      state = 'primary'
      changed()
    },
    becomeSecondary: () => {
      state = 'secondary'
      changed()
    },
    restart: () => {
      processId = new ObjectId()
      counter = 0
      electionTerm += 1
      state = 'secondary'
      for (const wake of [...waiting]) wake()
    },
  }
}
