// plant-store/testing/mocha: the kit's contracts registered with mocha. The caller passes mocha's
// `describe` and `it` (its globals, or `import { describe, it } from 'mocha'`), so the kit itself
// imports no runner.
import { registerContract, type ContractSuite } from './suite.js'

/** What the kit needs of mocha's `this` in a test: skipping it, and its title to give the reason. */
export interface MochaTestContext {
  readonly skip: () => void
  readonly test?: { title: string } | undefined
}

/** mocha's `describe` and `it`. */
export interface MochaRunner {
  readonly describe: (name: string, body: () => void) => unknown
  readonly it: (name: string, test: (this: MochaTestContext) => Promise<void>) => unknown
}

/**
 * Registers the suite's cases with mocha, one test each in a `describe` block of the suite's
 * name: `registerWithMocha({ describe, it }, suite)`. A case that cannot run here is pending, its
 * reason added to its title (mocha's skip takes none); one that breaks its rule fails, naming the
 * rule.
 *
 * @example
 * ```ts
 * import { describe, it } from 'mocha'
 * import { correctMapStore, plantStoreContract } from 'plant-store/testing'
 * import { registerWithMocha } from 'plant-store/testing/mocha'
 *
 * registerWithMocha({ describe, it }, plantStoreContract('a map', correctMapStore))
 * ```
 */
export const registerWithMocha = ({ describe, it }: MochaRunner, suite: ContractSuite): void =>
  registerContract({ describe, it, skip: skipInMocha }, suite)

const skipInMocha = (reason: string, self: unknown): void => {
  const test = self as MochaTestContext
  if (test.test !== undefined) test.test.title = `${test.test.title} (skipped: ${reason})`
  test.skip()
}
