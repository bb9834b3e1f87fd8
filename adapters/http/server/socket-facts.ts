import type { ServerResponse } from 'node:http'
import type { RequestProblem } from '../errors/problems.js'

// What the server's connection records tell whoever answers on a connection: the records
// (connections.ts) and the answers the server writes by itself (parser-refusals.ts) both speak of
// them, and neither imports the other for it.

/** An answer a connection owes, and the id of its request, stamped when the request was admitted. */
export interface OwedAnswer {
  readonly response: ServerResponse
  readonly requestId: string
}

/** What the server knows of one connection, for whoever answers on it. */
export interface SocketFacts {
  /** Answers owed on this connection, oldest first. */
  readonly owed: ReadonlyArray<OwedAnswer>
  /** The problem the server answered on this connection by itself, if it did: the first stands. */
  answered: RequestProblem | undefined
}
