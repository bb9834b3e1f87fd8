/**
 * What the admission rule sees of one open connection, whatever its socket: the client it belongs
 * to (`Client.key`), and the times the server last had news of it, on the server's Clock.
 */
export interface ConnectionView {
  readonly client: string
  /** The server answered on it by itself (a 408, say): it is closing, and holds nothing. */
  readonly closing: boolean
  /** Answers written and not yet taken by the network. */
  readonly unsentBytes: number
  /** When its output last moved, or last had nothing to move. */
  readonly movedAt: number
  /** Requests it has that are not answered yet. */
  readonly owed: number
  /** Whether the server is reading the body of its oldest request now. */
  readonly bodyAwaited: boolean
  /** When it last owed nothing: its opening, or its last answer's end. */
  readonly idleSince: number
  /** When the body being read last gained a segment's worth, or began to be awaited. */
  readonly heardAt: number
}

/** Answers that have not moved onto the network for this long are not being read. */
export const STALLED_AFTER_MS = 1_000

/**
 * Since when the server has been waiting on the connection's client, or undefined while it works
 * for it (a request read whole, in the app, in storage, waiting for a decoder; an answer on its
 * way) or the connection is closing. A head half-sent waits since the connection went idle, so
 * trickling a header byte at a time buys nothing; a body waits since it last progressed, so one
 * arriving at a segment's pace stays fresh.
 */
export const waitingSince = (view: ConnectionView, now: number): number | undefined => {
  if (view.closing) return undefined
  if (view.unsentBytes > 0) return now - view.movedAt >= STALLED_AFTER_MS ? view.movedAt : undefined
  if (view.owed === 0) return view.idleSince
  return view.bodyAwaited ? view.heardAt : undefined
}

/**
 * The connection closed for a newcomer at the cap, or undefined when none may be: among the
 * connections waiting on their clients, the longest-waiting one of the client holding the most
 * of them (of two clients holding as many, the one whose connection waited longer). Slowloris-style
 * slot holding costs a client its own slots first, and a slot the server is working for is never
 * taken: load shedding falls on what waits, never on work under way.
 */
export const connectionToClose = <C>(connections: Iterable<C>, viewOf: (connection: C) => ConnectionView, now: number): C | undefined => {
  const clients = new Map<string, { waiting: number; oldest: C; since: number }>()
  for (const connection of connections) {
    const view = viewOf(connection)
    const since = waitingSince(view, now)
    if (since === undefined) continue
    const seen = clients.get(view.client)
    if (seen === undefined) clients.set(view.client, { waiting: 1, oldest: connection, since })
    else {
      seen.waiting += 1
      if (since < seen.since) {
        seen.oldest = connection
        seen.since = since
      }
    }
  }
  let chosen: { waiting: number; oldest: C; since: number } | undefined
  for (const client of clients.values()) {
    if (chosen === undefined || client.waiting > chosen.waiting || (client.waiting === chosen.waiting && client.since < chosen.since)) chosen = client
  }
  return chosen?.oldest
}
