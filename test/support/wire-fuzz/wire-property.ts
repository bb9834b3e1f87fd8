// The wire fuzzer as a fast-check property: generated scenarios played one after another on one
// service process (a fresh one only after a death), each judged by the oracle of run-scenario.
import fc from 'fast-check'
import { runScenario, type FuzzBounds } from './run-scenario.js'
import { scenario } from './scenario.js'
import { FUZZ_HEADERS_TIMEOUT_MS, type ServiceKeeper } from './service-under-fuzz.js'

export interface WireFuzzSettings extends FuzzBounds {
  /** Actions per scenario, at most. */
  readonly maxActions: number
  /**
   * How long shrinking may go on after the first failure. Each shrink that kills the service
   * costs a restart; past this, the smallest failing scenario found so far is the one reported.
   */
  readonly shrinkBudgetMs: number
}

export const DEFAULT_WIRE_FUZZ_SETTINGS: WireFuzzSettings = {
  maxActions: 8,
  // The service starts near 100 MiB; a bound far past what any scenario's traffic should leave.
  maxResidentMiB: 400,
  shrinkBudgetMs: 60_000,
}

/** The property: every scenario leaves the service alive, answering well, and within its memory bound. */
export const wireProperty = (keeper: ServiceKeeper, settings: WireFuzzSettings) => {
  let firstFailureAt: number | undefined
  return fc.asyncProperty(scenario({ headersTimeoutMs: FUZZ_HEADERS_TIMEOUT_MS }, settings.maxActions), async (generated) => {
    // Shrinking past its budget ends the run; fast-check reports the smallest failure found so far.
    if (firstFailureAt !== undefined && Date.now() - firstFailureAt >= settings.shrinkBudgetMs) throw new fc.PreconditionFailure(true)
    try {
      const service = await keeper.forCase()
      const verdict = await runScenario(service, generated, settings, () => keeper.claimDeath(service))
      if (verdict.length > 0) throw new Error(verdict.join('\n'))
    } catch (error) {
      firstFailureAt ??= Date.now()
      throw error
    }
  })
}
