// What a contract is to a test runner: named async cases, each checking one rule, and a way to
// register them with whichever runner the caller uses.

/** One case of a contract: its name, the rule it checks, and the check. */
export interface ContractCase {
  readonly name: string
  /** The rule, as a failure names it: `plant-store/one-winner`, say. */
  readonly rule: string
  /** Resolves when the rule holds; rejects with an `AssertionError` naming the rule when not. */
  readonly run: () => Promise<void>
}

/** A contract's cases for one adapter. */
export interface ContractSuite {
  readonly name: string
  readonly cases: ReadonlyArray<ContractCase>
}

/**
 * Thrown by a case that cannot run against this adapter or on this machine (a fixture without a
 * way to cut storage off, a server that cannot start). A runner reports it as skipped, never as
 * passed.
 *
 * @example
 * ```ts
 * import { ContractSkipped, correctMapStore, plantStoreContract } from 'plant-store/testing'
 *
 * const [first] = plantStoreContract('a map', correctMapStore).cases
 * try {
 *   await first?.run()
 * } catch (error) {
 *   if (error instanceof ContractSkipped) console.log('skipped:', error.reason)
 *   else throw error
 * }
 * ```
 */
export class ContractSkipped extends Error {
  constructor(readonly reason: string) {
    super(reason)
    this.name = 'ContractSkipped'
  }
}

/**
 * Says, from a fixture or a case, that it cannot run here, and why.
 *
 * @example
 * ```ts
 * import { cannotRunHere, type PlantStoreFixtureFactory } from 'plant-store/testing'
 *
 * const fixture: PlantStoreFixtureFactory = async () =>
 *   cannotRunHere('no MongoDB server on this machine: set MONGODB_URI')
 * ```
 */
export const cannotRunHere = (reason: string): never => {
  throw new ContractSkipped(reason)
}

/**
 * The parts of a test runner the kit needs: `describe` and `it` as node:test, mocha, vitest and
 * jest all have them, and how to mark a running test skipped. `skip` gets the reason, the
 * runner's `this` and the test function's first argument (node:test's `t`); without it, a case
 * that cannot run fails, so nothing passes unnoticed.
 */
export interface TestRunner {
  readonly describe: (name: string, body: () => void) => unknown
  readonly it: (name: string, test: () => Promise<void>) => unknown
  readonly skip?: (reason: string, self: unknown, context: unknown) => void
}

/**
 * Runs one case for a runner: resolves with `undefined` when its rule holds, with the reason when
 * it cannot run here, and rejects, as the case did, when its rule is broken.
 *
 * @example
 * ```ts
 * import { attemptCase, correctMapStore, plantStoreContract } from 'plant-store/testing'
 *
 * for (const contractCase of plantStoreContract('a map', correctMapStore).cases) {
 *   const skipped = await attemptCase(contractCase) // rejects when the rule is broken
 *   console.log(contractCase.name, skipped ?? 'passed')
 * }
 * ```
 */
export const attemptCase = async (contractCase: ContractCase): Promise<string | undefined> => {
  try {
    await contractCase.run()
    return undefined
  } catch (error) {
    if (error instanceof ContractSkipped) return error.reason
    throw error
  }
}

/**
 * Registers the suite's cases, one test each, in a `describe` block of its name.
 *
 * @example
 * ```ts
 * import { describe, it } from 'mocha'
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 * import { plantStoreContract, registerContract } from 'plant-store/testing'
 *
 * // Any runner with describe and it; this one fails a case that cannot run here.
 * registerContract({ describe, it }, plantStoreContract('in-memory', async () => ({ store: makeInMemoryPlantStore(), release: async () => {} })))
 * ```
 */
export const registerContract = (runner: TestRunner, suite: ContractSuite): void => {
  runner.describe(suite.name, () => {
    for (const contractCase of suite.cases) {
      // Rest parameters keep the function's length 0: mocha reads a declared parameter as `done`.
      runner.it(contractCase.name, async function (this: unknown, ...context: unknown[]) {
        const skipped = await attemptCase(contractCase)
        if (skipped === undefined) return
        // A runner that cannot skip fails the case, so nothing passes unnoticed.
        if (runner.skip === undefined) throw new ContractSkipped(skipped)
        runner.skip(skipped, this, context[0])
      })
    }
  })
}

/** What running one case came to, for a caller that runs the cases itself. */
export type CaseOutcome =
  | { readonly name: string; readonly rule: string; readonly outcome: 'passed' }
  | { readonly name: string; readonly rule: string; readonly outcome: 'failed'; readonly message: string }
  | { readonly name: string; readonly rule: string; readonly outcome: 'skipped'; readonly reason: string }

/**
 * Runs every case of the suite, one after another, and reports each outcome.
 *
 * @example
 * ```ts
 * import { correctMapStore, plantStoreContract, runContract } from 'plant-store/testing'
 *
 * const outcomes = await runContract(plantStoreContract('a map', correctMapStore))
 * console.log(outcomes.filter(({ outcome }) => outcome === 'failed'))
 * ```
 */
export const runContract = async (suite: ContractSuite): Promise<ReadonlyArray<CaseOutcome>> => {
  const outcomes: CaseOutcome[] = []
  for (const { name, rule, run } of suite.cases) {
    try {
      await run()
      outcomes.push({ name, rule, outcome: 'passed' })
    } catch (error) {
      outcomes.push(
        error instanceof ContractSkipped
          ? { name, rule, outcome: 'skipped', reason: error.reason }
          : { name, rule, outcome: 'failed', message: error instanceof Error ? error.message : String(error) },
      )
    }
  }
  return outcomes
}
