// plant-store/testing/node-test: the kit's contracts registered with Node's own runner, node:test.
// The caller passes node:test's `describe` and `it`, so the kit itself imports no runner.
import { registerContract, type ContractSuite } from './suite.js'

/** What the kit needs of node:test's test context: a way to mark the running test skipped. */
export interface NodeTestContext {
  readonly skip: (message?: string) => void
}

/** node:test's `describe` and `it`, as `import { describe, it } from 'node:test'` gives them. */
export interface NodeTestRunner {
  readonly describe: (name: string, body: () => void) => unknown
  readonly it: (name: string, test: (t: NodeTestContext) => Promise<void>) => unknown
}

/**
 * Registers the suite's cases with node:test, one test each in a `describe` block of the suite's
 * name: `registerWithNodeTest({ describe, it }, suite)`. A case that cannot run here is reported
 * skipped with its reason; one that breaks its rule fails, naming the rule.
 *
 * @example
 * ```ts
 * import { describe, it } from 'node:test'
 * import { correctMapStore, plantStoreContract } from 'plant-store/testing'
 * import { registerWithNodeTest } from 'plant-store/testing/node-test'
 *
 * registerWithNodeTest({ describe, it }, plantStoreContract('a map', correctMapStore))
 * ```
 */
export const registerWithNodeTest = ({ describe, it }: NodeTestRunner, suite: ContractSuite): void =>
  registerContract({ describe, it, skip: (reason, _self, t) => (t as NodeTestContext).skip(reason) }, suite)
