import { repeatEvery, type Clock } from '../../core/index.js'

/** What the stop does to a listener and its connections. */
export interface ListenerToStop {
  /** Stops accepting; `closed` is called once every connection has ended. */
  readonly close: (closed: () => void) => void
  /** Closes every connection with no request in flight. */
  readonly closeIdleConnections: () => void
  /** Cuts every connection whose request is still sending its body. */
  readonly cutHalfSent: () => void
  /** Cuts every connection left. */
  readonly closeAllConnections: () => void
}

/** How often, while a listener closes, connections whose last response went out are closed. */
export const IDLE_SWEEP_MS = 50

/** How long a request still sending its body when the listener closes may take to finish sending it. */
export const HALF_SENT_MS = 1_000

/**
 * Stops a listener within `graceMs`: it stops accepting, its idle connections close at once and
 * every `IDLE_SWEEP_MS` after (keep-alive connections outlive close(): each closes as soon as its
 * last response is sent), a request still sending its body is cut `HALF_SENT_MS` after the stop
 * began (or at `graceMs`, if sooner), and every connection left is cut at `graceMs`. Settles when
 * the listener has closed, leaving no timer set.
 */
export const stopAccepting = async (listener: ListenerToStop, graceMs: number, clock: Clock): Promise<void> => {
  const closed = new Promise<void>((resolve) => listener.close(resolve))
  listener.closeIdleConnections()
  const stopSweep = repeatEvery(clock, IDLE_SWEEP_MS, listener.closeIdleConnections)
  // A body still on its way gets a moment to arrive (a client mid-send finishes), not the whole
  // grace: a sender that stalled would hold the stop, and everyone's connections, for all of it.
  const cancelHalfSent = clock.setTimer(Math.min(HALF_SENT_MS, graceMs), listener.cutHalfSent)
  const cancelForced = clock.setTimer(graceMs, listener.closeAllConnections)
  await closed
  stopSweep()
  cancelHalfSent()
  cancelForced()
}
