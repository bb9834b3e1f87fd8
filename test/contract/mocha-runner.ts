import type { TestRunner } from '../../testing/index.js'
import { reportPending } from '../support/pending.js'

// Mocha as the kit's test runner: a case that cannot run here is pending, and its reason is said
// once on stderr.
const said = new Set<string>()

export const mochaRunner: TestRunner = {
  describe,
  it,
  skip: (reason, self) => {
    if (!said.has(reason)) reportPending('a contract case', reason)
    said.add(reason)
    ;(self as Mocha.Context).skip()
  },
}
