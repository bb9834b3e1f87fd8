// The wire fuzzer as a fast-check property: generated scenarios played one after another on one
// service process (a fresh one after a death, or after a scenario's SIGTERM), each judged by the
// oracle of run-scenario.
import fc from 'fast-check'
import { runScenario, type FuzzBounds } from './run-scenario.js'
import { scenario } from './scenario.js'
import { FUZZ_CONNECTION_CAPS, FUZZ_LIMITS, type ServiceKeeper } from './service-under-fuzz.js'

export interface WireFuzzSettings extends FuzzBounds {
  /** Actions per scenario, at most. */
  readonly maxActions: number
  /**
   * How long shrinking may go on after the first failure. Each shrink that kills the service
   * costs a restart; past this, the smallest failing scenario found so far is the one reported.
   */
  readonly shrinkBudgetMs: number
  /** Pauses a scenario may hold that go past one of the service's time-outs; none keeps scenarios short. */
  readonly longPausesMs: ReadonlyArray<number>
  /** How often a scenario has a crowd beside it, and a SIGTERM part-way, from 0 to 1. */
  readonly crowdOdds: number
  readonly stopOdds: number
}

// Just past the service's time-outs: a silent connection's first byte (2 s), a body's progress
// (5 s), the headers (the default HEADERS_TIMEOUT_MS).
const PAST_TIMEOUTS_MS = [2_200, 5_500, FUZZ_LIMITS.headersTimeoutMs + 200]

export const DEFAULT_WIRE_FUZZ_SETTINGS: WireFuzzSettings = {
  maxActions: 8,
  // The service starts near 100 MiB; a bound far past what any scenario's traffic should leave.
  maxResidentMiB: 400,
  shrinkBudgetMs: 60_000,
  longPausesMs: PAST_TIMEOUTS_MS,
  crowdOdds: 0.4,
  stopOdds: 0.1,
}

/** The property: every scenario leaves the service alive, answering well, serving others, within its memory bound, and stoppable. */
export const wireProperty = (keeper: ServiceKeeper, settings: WireFuzzSettings) => {
  let firstFailureAt: number | undefined
  const timing = {
    longPausesMs: settings.longPausesMs,
    share: FUZZ_CONNECTION_CAPS.maxConnectionsPerAddress,
    cap: FUZZ_CONNECTION_CAPS.maxConnections,
    crowdOdds: settings.crowdOdds,
    stopOdds: settings.stopOdds,
  }
  return fc.asyncProperty(scenario(timing, settings.maxActions), async (generated) => {
    // Shrinking past its budget ends the run; fast-check reports the smallest failure found so far.
    if (firstFailureAt !== undefined && Date.now() - firstFailureAt >= settings.shrinkBudgetMs) throw new fc.PreconditionFailure(true)
    try {
      const service = await keeper.forCase()
      const verdict = await runScenario(service, generated, settings, {
        deathOf: () => keeper.claimDeath(service),
        retire: () => keeper.retire(service),
      })
      if (verdict.length > 0) throw new Error(verdict.join('\n'))
    } catch (error) {
      firstFailureAt ??= Date.now()
      throw error
    }
  })
}
