// The peer's life: a TCP server on loopback that answers MongoDB wire-protocol commands from
// memory, can be taken down and brought back on the same port, and shows injected faults.
import { once, setMaxListeners } from 'node:events'
import { createServer, type Server, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Document } from 'bson'
import {
  commandNameOf,
  isAwaitableHello,
  MAX_INTERNAL_BSON_OBJECT_SIZE,
  MAX_MESSAGE_SIZE_BYTES,
  runCommand,
  type CommandContext,
  type IdUniqueness,
  type PeerMonitoring,
  type PeerRole,
} from './commands.js'
import { commandError } from './errors.js'
import { makePeerData, makeRetryRecords, type PeerData, type RetryRecords } from './data.js'
import { errorReply, makeFaultPlan, withWriteConcernError, type Fault, type FaultPlan } from './faults.js'
import { clusterTimeOf, makeReplication, type Replication } from './replication.js'
import { makePeerTopology } from './topology.js'
import { numberOf } from './values.js'
import { decodeRequest, encodeReply, makeMessageReader, type WireRequest } from './wire.js'

export interface MongoPeerOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number
  readonly host?: string
  /** The replica set the peer says it is the primary of. */
  readonly setName?: string
  /**
   * Told of every command as it reaches the server, before it runs: what a test asserts the driver
   * sent, and when (a `delayRequest` fault makes it reach the server later than it was sent).
   */
  readonly onCommand?: (name: string, command: Document) => void
  /** `streaming` (the default, as mongod 4.4+): topologyVersion in `hello`, and awaitable `hello` answered as it changes. */
  readonly monitoring?: PeerMonitoring
  /** How `_id` is kept unique: `idIndex` (the default) or `clustered` collections, whose duplicate key error names no index. */
  readonly idUniqueness?: IdUniqueness
  /** `member` (the default): a replica set's primary; or a router, `mongos`, alone or `mongosBehindLoadBalancer`. */
  readonly role?: PeerRole
  /**
   * The data to serve, another peer's: several routers in front of one cluster, each with its own
   * address, share the documents and the retryable writes' records, as mongos instances share
   * their shards.
   */
  readonly storage?: PeerStorage
}

/** What a peer serves: its documents, its retryable writes' records and its oplog. */
export interface PeerStorage {
  readonly data: PeerData
  readonly retries: RetryRecords
  readonly replication: Replication
}

/** The ways a peer can tell clients of its state, each of which the fault suites run through. */
export const PEER_MONITORING_MODES: ReadonlyArray<PeerMonitoring> = ['streaming', 'polling']

/** A running peer. */
export interface MongoPeer {
  readonly port: number
  /**
   * A connection string for the official driver, ending in a query so that a test can append
   * options: naming the replica set of a member, and asking for the load-balanced mode behind a
   * load balancer.
   */
  readonly uri: string
  /** What it serves, for another peer to share (MongoPeerOptions.storage). */
  readonly storage: PeerStorage
  readonly faults: Pick<FaultPlan, 'inject' | 'clear'>
  /** Every document stored in a namespace (`db.collection`), as stored. */
  readonly documents: (namespace: string) => Document[]
  /** Refuses connections and closes the open ones, as a server that went down. */
  readonly goDown: () => Promise<void>
  /** Accepts connections again on the same port, with the data it had. */
  readonly comeBack: () => Promise<void>
  /**
   * Restarts as mongod restarts: connections closed, then a new process (a new topologyVersion
   * process id, connection ids from 1) that is secondary for `secondaryMs`, then primary again in
   * the next election term. Resolves once it accepts connections again, still secondary.
   */
  readonly restart: (secondaryMs?: number) => Promise<void>
  /**
   * Goes quiet, as a network partition does: connections stay open and new ones are accepted,
   * but nothing crosses the network either way until `endQuiet`. What was sent meanwhile is held,
   * not lost, as TCP keeps retransmitting it: when the network heals, the server receives and runs
   * every command sent into the partition, even on a connection its client has since closed (the
   * client's FIN comes after its data), and its answers reach the connections still open.
   */
  readonly goQuiet: () => void
  readonly endQuiet: () => void
  /**
   * Sets the election term the peer reports from now on: higher after an election; back to 1
   * for a replica set initiated anew, whose primary a client that saw a higher term takes for
   * a stale one and never selects again.
   */
  readonly setElectionTerm: (term: number) => void
  /** Steps down: a secondary, refusing writes (NotWritablePrimary), until `stepUp`. */
  readonly stepDown: () => void
  /** Primary again, in the next election term. */
  readonly stepUp: () => void
  /**
   * How many connections clients have closed while the peer was up: a client closes one whose
   * reply it gave up waiting for (the driver destroys a connection whose reply was cut by a
   * deadline), and must open another for the next call.
   */
  readonly connectionsClosedByClients: () => number
  /** How many connections are open now: the clients' pools' and their monitors'. */
  readonly openConnections: () => number
  readonly stop: () => Promise<void>
}

/** Starts a peer and answers once it listens. */
export const startMongoPeer = async (options: MongoPeerOptions = {}): Promise<MongoPeer> => {
  const host = options.host ?? '127.0.0.1'
  const setName = options.setName ?? 'rs0'
  const { data, retries, replication } = options.storage ?? { data: makePeerData(), retries: makeRetryRecords(), replication: makeReplication() }
  const role = options.role ?? 'member'
  const faults = makeFaultPlan()
  const monitoring = options.monitoring ?? 'streaming'
  const topology = makePeerTopology()
  const stopping = new AbortController()
  // Every delayed command and every awaitable hello waits on it: a slow server has many.
  setMaxListeners(Infinity, stopping.signal)
  const sockets = new Set<Socket>()
  let nextConnectionId = 0
  let closedByClients = 0
  // Connections the peer closed itself (a fault, going down), which no client gave up.
  const dropped = new WeakSet<Socket>()
  const drop = (socket: Socket): void => {
    dropped.add(socket)
    socket.destroy()
  }
  let nextRequestId = 0
  let port = options.port ?? 0
  let quiet = false
  // What each connection has to deliver once the network heals.
  const held = new Set<() => void>()
  let primaryAgain: NodeJS.Timeout | undefined

  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => {
      sockets.delete(socket)
      if (!dropped.has(socket)) closedByClients += 1
    })
    socket.on('error', () => socket.destroy())
    const closed = new AbortController()
    socket.on('close', () => closed.abort())
    const context: CommandContext = {
      role,
      data,
      retries,
      replication,
      address: `${host}:${port}`,
      setName,
      connectionId: (nextConnectionId += 1),
      replicationLagMs: 0,
      stopping: stopping.signal,
      topology,
      monitoring,
      idUniqueness: options.idUniqueness ?? 'idIndex',
    }
    const read = makeMessageReader(MAX_MESSAGE_SIZE_BYTES)
    // One command at a time per connection, in order, as a mongod connection serves them.
    let queue = Promise.resolve()
    const receive = (chunk: Buffer): void => {
      let messages: Buffer[]
      try {
        messages = read(chunk)
      } catch {
        drop(socket)
        return
      }
      for (const message of messages) {
        queue = queue.then(() => serve(connection, message, context, closed.signal)).catch(() => {
          drop(socket)
        })
      }
    }
    let inbound: Buffer[] = []
    let outbound: Buffer[] = []
    const deliverHeld = (): void => {
      const [received, sent] = [inbound, outbound]
      inbound = []
      outbound = []
      for (const bytes of sent) if (!socket.destroyed) socket.write(bytes)
      for (const chunk of received) receive(chunk)
    }
    const connection: Connection = {
      socket,
      send: (bytes) => {
        if (quiet) {
          outbound.push(bytes)
          held.add(deliverHeld)
        } else if (!socket.destroyed) socket.write(bytes)
      },
    }
    socket.on('data', (chunk: Buffer) => {
      if (quiet) {
        inbound.push(chunk)
        held.add(deliverHeld)
      } else receive(chunk)
    })
  })

  const serve = async ({ socket, send }: Connection, message: Buffer, context: CommandContext, closed: AbortSignal): Promise<void> => {
    const request = decodeRequest(message)
    const name = commandNameOf(request.command)
    if (monitoring === 'streaming' && isAwaitableHello(request.command)) {
      options.onCommand?.(name, request.command)
      return stream(socket, request, context, closed)
    }
    const fault = faults.take(name, request.command)
    if (fault?.kind === 'delayRequest') await sleep(fault.ms, undefined, { signal: stopping.signal })
    options.onCommand?.(name, request.command)
    if (fault?.kind === 'delayApply') await sleep(fault.ms, undefined, { signal: stopping.signal })
    const reply = request.bodyBytes > MAX_INTERNAL_BSON_OBJECT_SIZE ? tooLarge(request.bodyBytes) : await answer(request, fault, context)
    if (reply === 'drop') {
      drop(socket)
      return
    }
    if (fault?.kind === 'delayReply') await sleep(fault.ms, undefined, { signal: stopping.signal })
    if (request.moreToCome) return
    send(encodeReply(request, (nextRequestId += 1), gossip(reply)))
  }

  // An awaitable hello (a streaming monitor's) is answered when the topology changes or the
  // client's maxAwaitTimeMS has passed, and, with exhaustAllowed, again and again after that, each
  // reply flagged moreToCome, for as long as the connection lasts.
  const stream = async (socket: Socket, request: WireRequest, context: CommandContext, closed: AbortSignal): Promise<void> => {
    const maxAwaitMs = numberOf(request.command.maxAwaitTimeMS) ?? 10_000
    let known: unknown = request.command.topologyVersion
    const ended = AbortSignal.any([closed, stopping.signal])
    while (!ended.aborted) {
      await topology.changeFrom(known, maxAwaitMs, ended)
      if (ended.aborted || socket.destroyed) return
      if (quiet) {
        await sleep(50, undefined, { signal: ended }).catch(() => {})
        continue
      }
      const reply = gossip(await runCommand(request.command, context))
      socket.write(encodeReply(request, (nextRequestId += 1), reply, request.exhaustAllowed))
      if (!request.exhaustAllowed) return
      known = reply.topologyVersion
    }
  }

  // Every reply of a replica set's member or a router carries the cluster time and the
  // operation's time, as mongod's and mongos's do, failed ones too; a command that read or wrote
  // at a time of its own says so (find, insert), any other is answered at the last write.
  const gossip = (reply: Document): Document => ({
    ...reply,
    $clusterTime: clusterTimeOf(replication),
    operationTime: reply.operationTime ?? replication.lastApplied().ts,
  })

  const answer = async (request: WireRequest, fault: Fault | undefined, context: CommandContext): Promise<Document | 'drop'> => {
    const command = request.command
    switch (fault?.kind) {
      case 'dropBeforeRun':
        return 'drop'
      case 'error':
        return errorReply(fault, command)
      case 'writeConcernError':
        return withWriteConcernError(await runCommand(command, context), fault, command)
      case 'dropAfterRun':
        // The writes are applied before the command first waits (for its write concern), and
        // that wait is for a reply that will never be sent: the socket closes at once.
        runCommand(command, { ...context, replicationLagMs: fault.replicationLagMs ?? 0 }).catch(() => {})
        return 'drop'
      case 'replicationLag':
        return runCommand(command, { ...context, replicationLagMs: fault.ms })
      case 'refuseDocuments':
        return runCommand(command, { ...context, refusal: fault.refusal })
      case 'interrupt':
        return runCommand(command, { ...context, interruption: fault.interruption })
      case 'delayReply':
      case 'delayRequest':
      case 'delayApply':
      case undefined:
        return runCommand(command, context)
    }
  }

  const listen = async (): Promise<void> => {
    if (server.listening) return
    server.listen(port, host)
    await once(server, 'listening')
    const address = server.address()
    if (address !== null && typeof address === 'object') port = address.port
  }

  const goDown = async (): Promise<void> => {
    if (!server.listening) return
    const closed = once(server, 'close')
    server.close()
    for (const socket of sockets) drop(socket)
    await closed
  }

  await listen()
  return {
    port,
    uri: uriFor(role, `${host}:${port}`, setName),
    storage: { data, retries, replication },
    faults: { inject: faults.inject, clear: faults.clear },
    documents: data.documents,
    goDown,
    comeBack: listen,
    restart: async (secondaryMs = 300) => {
      await goDown()
      topology.restart()
      nextConnectionId = 0
      await listen()
      clearTimeout(primaryAgain)
      primaryAgain = setTimeout(() => topology.becomePrimary(), secondaryMs)
    },
    goQuiet: () => {
      quiet = true
    },
    endQuiet: () => {
      quiet = false
      for (const deliver of [...held]) deliver()
      held.clear()
    },
    setElectionTerm: topology.setElectionTerm,
    stepDown: topology.becomeSecondary,
    stepUp: () => {
      topology.setElectionTerm(topology.electionTerm() + 1)
      topology.becomePrimary()
    },
    connectionsClosedByClients: () => closedByClients,
    openConnections: () => sockets.size,
    stop: async () => {
      clearTimeout(primaryAgain)
      stopping.abort()
      await goDown()
    },
  }
}

const uriFor = (role: PeerRole, address: string, setName: string): string => {
  switch (role) {
    case 'member':
      return `mongodb://${address}/?replicaSet=${setName}`
    case 'mongos':
      return `mongodb://${address}/?directConnection=false`
    case 'mongosBehindLoadBalancer':
      return `mongodb://${address}/?loadBalanced=true`
  }
}

/** A client's connection as the server sees it: replies go through `send`, which a quiet network holds. */
interface Connection {
  readonly socket: Socket
  readonly send: (bytes: Buffer) => void
}

// mongod's answer to a command whose own BSON object is over the internal limit (BSONObj's
// validation, BSONObjectTooLarge): the command is not run.
const tooLarge = (bytes: number): Document =>
  commandError(
    10334,
    'BSONObjectTooLarge',
    `BSONObj size: ${bytes} (0x${bytes.toString(16).toUpperCase()}) is invalid. Size must be between 0 and ${MAX_INTERNAL_BSON_OBJECT_SIZE}(16MB)`,
  )

export type { PeerData }
