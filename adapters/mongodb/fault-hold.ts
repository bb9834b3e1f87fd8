import type { Clock } from '../../core/index.js'

/**
 * Readiness reports the configuration fault a store call last met until `heldMs` have passed
 * since it was met, or until a store call succeeds, whichever comes first. A missing privilege or
 * a write concern the replica set cannot satisfy shows on writes only, never on readiness's own
 * probe, so without this `/readyz` would say ready while every create is refused.
 */
export interface FaultHold<F> {
  /** A store call met `fault`: held from now, in place of any held before. */
  readonly met: (fault: F) => void
  /** A store call succeeded: nothing is held. */
  readonly succeeded: () => void
  /** The fault held now, if any. */
  readonly held: () => F | undefined
}

export const makeFaultHold = <F>(heldMs: number, clock: Pick<Clock, 'now'>): FaultHold<F> => {
  let last: { readonly fault: F; readonly until: number } | undefined
  return {
    met: (fault) => {
      last = { fault, until: clock.now() + heldMs }
    },
    succeeded: () => {
      last = undefined
    },
    held: () => (last !== undefined && clock.now() < last.until ? last.fault : undefined),
  }
}
