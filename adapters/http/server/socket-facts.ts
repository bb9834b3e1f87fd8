import type { ServerResponse } from 'node:http'
import type { RequestProblem } from '../errors/problems.js'
import type { ServedRequest } from '../context/request-context.js'

// What the server's connection records tell whoever answers on a connection: the records
// (connections.ts) and the answers the server writes by itself (parser-refusals.ts) both speak of
// them, and neither imports the other for it.

/**
 * An answer a connection owes: the request's head and id, read and stamped on its response when
 * the request was admitted, and the connection's record, as the app serving the request is told
 * of them.
 */
export interface OwedAnswer extends ServedRequest {
  readonly response: ServerResponse
}

/** What the server knows of one connection, for whoever answers on it. */
export interface SocketFacts {
  /** Answers owed on this connection, oldest first. */
  readonly owed: ReadonlyArray<OwedAnswer>
  /** The problem the server answered on this connection by itself, if it did: the first stands. */
  answered: RequestProblem | undefined
}
