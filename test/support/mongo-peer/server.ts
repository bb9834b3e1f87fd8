// The peer's life: a TCP server on loopback that answers MongoDB wire-protocol commands from
// memory, can be taken down and brought back on the same port, and shows injected faults.
import { once } from 'node:events'
import { createServer, type Server, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Document } from 'bson'
import { commandNameOf, runCommand, type CommandContext } from './commands.js'
import { makePeerData, makeRetryRecords, type PeerData } from './data.js'
import { errorReply, makeFaultPlan, withWriteConcernError, type Fault, type FaultPlan } from './faults.js'
import { decodeRequest, encodeReply, makeMessageReader, type WireRequest } from './wire.js'

export interface MongoPeerOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number
  readonly host?: string
  /** The replica set the peer says it is the primary of. */
  readonly setName?: string
  /** Told of every command as it arrives, before it runs: what a test asserts the driver sent, and when. */
  readonly onCommand?: (name: string, command: Document) => void
}

/** A running peer. */
export interface MongoPeer {
  readonly port: number
  /** A connection string for the official driver, naming the peer's replica set. */
  readonly uri: string
  readonly faults: Pick<FaultPlan, 'inject' | 'clear'>
  /** Every document stored in a namespace (`db.collection`), as stored. */
  readonly documents: (namespace: string) => Document[]
  /** Refuses connections and closes the open ones, as a server that went down. */
  readonly goDown: () => Promise<void>
  /** Accepts connections again on the same port, with the data it had. */
  readonly comeBack: () => Promise<void>
  /**
   * Sets the election term the peer reports from now on: higher after an election; back to 1
   * for a replica set initiated anew, whose primary a client that saw a higher term takes for
   * a stale one and never selects again.
   */
  readonly setElectionTerm: (term: number) => void
  readonly stop: () => Promise<void>
}

/** Starts a peer and answers once it listens. */
export const startMongoPeer = async (options: MongoPeerOptions = {}): Promise<MongoPeer> => {
  const host = options.host ?? '127.0.0.1'
  const setName = options.setName ?? 'rs0'
  const data = makePeerData()
  const retries = makeRetryRecords()
  const faults = makeFaultPlan()
  const stopping = new AbortController()
  const sockets = new Set<Socket>()
  let nextConnectionId = 0
  let nextRequestId = 0
  let port = options.port ?? 0
  let electionTerm = 1

  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    const context: CommandContext = {
      data,
      retries,
      address: `${host}:${port}`,
      setName,
      connectionId: (nextConnectionId += 1),
      replicationLagMs: 0,
      stopping: stopping.signal,
      electionTerm: () => electionTerm,
    }
    const read = makeMessageReader()
    // One command at a time per connection, in order, as a mongod connection serves them.
    let queue = Promise.resolve()
    socket.on('data', (chunk: Buffer) => {
      let messages: Buffer[]
      try {
        messages = read(chunk)
      } catch {
        socket.destroy()
        return
      }
      for (const message of messages) {
        queue = queue.then(() => serve(socket, message, context)).catch(() => {
          socket.destroy()
        })
      }
    })
  })

  const serve = async (socket: Socket, message: Buffer, context: CommandContext): Promise<void> => {
    const request = decodeRequest(message)
    const name = commandNameOf(request.command)
    options.onCommand?.(name, request.command)
    const fault = faults.take(name)
    const reply = await answer(request, fault, context)
    if (reply === 'drop') {
      socket.destroy()
      return
    }
    if (fault?.kind === 'delayReply') await sleep(fault.ms, undefined, { signal: stopping.signal })
    if (socket.destroyed || request.moreToCome) return
    socket.write(encodeReply(request, (nextRequestId += 1), reply))
  }

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
      case 'delayReply':
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
    for (const socket of sockets) socket.destroy()
    await closed
  }

  await listen()
  return {
    port,
    uri: `mongodb://${host}:${port}/?replicaSet=${setName}`,
    faults: { inject: faults.inject, clear: faults.clear },
    documents: data.documents,
    goDown,
    comeBack: listen,
    setElectionTerm: (term) => {
      electionTerm = term
    },
    stop: async () => {
      stopping.abort()
      await goDown()
    },
  }
}

export type { PeerData }
