// A MongoDB that keeps going down and coming back, as a flapping network or a crash-looping
// node does: the fault that once left service instances at 503 for good.
import { setTimeout as sleep } from 'node:timers/promises'
import type { MongoPeer } from './server.js'

export interface Flapping {
  readonly times: number
  readonly downMs: number
  readonly upMs: number
}

/** The flapping the issue observed: down 1 s, up 1.5 s, eight times. */
export const OBSERVED_FLAPPING: Flapping = { times: 8, downMs: 1000, upMs: 1500 }

/**
 * Takes the peer down and brings it back `times` times, ending up; resolves when the last
 * `comeBack` has happened (the moment recovery is measured from). `signal` ends it early, up.
 */
export const flap = async (peer: Pick<MongoPeer, 'goDown' | 'comeBack'>, flapping: Flapping, signal?: AbortSignal): Promise<void> => {
  try {
    for (let round = 0; round < flapping.times && signal?.aborted !== true; round += 1) {
      await peer.goDown()
      await sleep(flapping.downMs, undefined, { signal })
      await peer.comeBack()
      if (round < flapping.times - 1) await sleep(flapping.upMs, undefined, { signal })
    }
  } catch (error) {
    if (signal?.aborted !== true) throw error
  } finally {
    await peer.comeBack()
  }
}
