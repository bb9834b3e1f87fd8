import type { TestRunner } from '../../testing/index.js'
import { reportPending } from '../support/pending.js'

// Mocha as the kit's test runner: a case that cannot run here is pending, and its reason is said
// once on stderr. Mocha's `describe` and `it` are looked up on each call: mocha gives every test
// file globals of its own, and a parallel worker runs several files while keeping this module, so
// functions taken once would register a later file's cases in an earlier file's finished suite,
// where they never run.
const said = new Set<string>()

export const mochaRunner: TestRunner = {
  describe: (name, body) => describe(name, body),
  it: (name, test) => it(name, test),
  skip: (reason, self) => {
    if (!said.has(reason)) reportPending('a contract case', reason)
    said.add(reason)
    ;(self as Mocha.Context).skip()
  },
}
