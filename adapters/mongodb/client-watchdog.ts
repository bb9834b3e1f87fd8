import type { Clock } from '../../core/index.js'

/**
 * Says when a MongoDB client has found no server it can reach for too long to be trusted to
 * recover by itself. The driver normally follows a server that goes and comes back, but its monitor can be
 * left in a state it does not leave (after MongoDB flapped, instances answered 503 for
 * minutes while MongoDB was healthy; a replica set initiated anew is taken for a stale primary
 * for ever). A fresh client starts from nothing, so replacing it bounds how long that lasts.
 */
export interface ClientWatchdog {
  /** A call succeeded: the client works. */
  readonly succeeded: () => void
  /**
   * A call failed because no server could be reached. True when calls have failed so, with no
   * success in between, for `replaceAfterMs`: the client should be replaced now (the clock then
   * starts again, so a MongoDB that is really down sees one replacement per period, no more).
   */
  readonly failedUnreachable: () => boolean
}

export const makeClientWatchdog = (replaceAfterMs: number, clock: Pick<Clock, 'now'>): ClientWatchdog => {
  let failingSince: number | undefined
  return {
    succeeded: () => {
      failingSince = undefined
    },
    failedUnreachable: () => {
      const at = clock.now()
      failingSince ??= at
      if (at - failingSince < replaceAfterMs) return false
      failingSince = at
      return true
    },
  }
}
