import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestProblem } from '../errors/problems.js'
import type { RequestHead } from './request-head.js'

// The ground floor of the HTTP adapter: a request's id, and what the server that admitted it
// knows of it, found by the app through the request's socket. Every folder of the adapter
// imports it; it imports only the errors below it, and the head beside it.

/**
 * A request id a client or a proxy may choose: 1 to 128 characters of `A-Z a-z 0-9` and
 * `- . _ ~ : / + = @`. Anything else (spaces, quotes, control characters, a longer value) could
 * forge or break a log line, so it is replaced, not cleaned.
 */
export const REQUEST_ID_PATTERN = '^[A-Za-z0-9\\-._~:/+=@]{1,128}$'
const WELL_FORMED = new RegExp(REQUEST_ID_PATTERN)

/**
 * The incoming `X-Request-Id` when it is well-formed, otherwise a fresh random UUID.
 *
 * @example
 * ```ts
 * import { requestIdFrom } from 'plant-store/adapters/http'
 *
 * requestIdFrom('checkout-7f3a') // 'checkout-7f3a'
 * requestIdFrom('not a good id') // a fresh random UUID
 * ```
 */
export const requestIdFrom = (header: string | undefined): string =>
  header !== undefined && WELL_FORMED.test(header) ? header : randomUUID()

/**
 * What the server that admitted a request knows of it: its head, read once as it was admitted,
 * the id it gave it (and stamped on its response), and its connection, on which the server may
 * answer by itself (a 408 for a body too slow): the request then shows up in the app as an
 * aborted body, and the app logs the status the client actually got.
 */
export interface ServedRequest {
  readonly head: RequestHead
  readonly requestId: string
  readonly connection: { readonly answered: RequestProblem | undefined }
}

/** What a server of this adapter knows of one of its connections: the requests it admitted on it, still owed their answers. */
export interface ServedConnection {
  readonly owed: ReadonlyArray<ServedRequest & { readonly response: ServerResponse }>
}

// Keyed by the socket the server owns, one entry a connection rather than a request: an app
// served by several servers finds each request's connection in the record of the server that
// accepted it, and one served by a server of an embedder's own finds none and gives the request
// its id itself.
const servedConnections = new WeakMap<object, ServedConnection>()

/** Tells whichever app serves the requests of a connection what its server knows of them; called once, when it is accepted. */
export const serveConnection = (socket: object, connection: ServedConnection): void => {
  servedConnections.set(socket, connection)
}

/** What the server that admitted a request knows of it, when it was one of this adapter's. */
export const servedRequestOf = (req: IncomingMessage): ServedRequest | undefined => {
  const connection = servedConnections.get(req.socket)
  if (connection === undefined) return undefined
  for (const owed of connection.owed) if (owed.response.req === req) return owed
  return undefined
}
