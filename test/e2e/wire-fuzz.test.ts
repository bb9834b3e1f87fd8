import fc from 'fast-check'
import { useCurrentBuild } from '../support/current-build.js'
import { keepService, type ServiceKeeper } from '../support/wire-fuzz/service-under-fuzz.js'
import { DEFAULT_WIRE_FUZZ_SETTINGS, wireProperty } from '../support/wire-fuzz/wire-property.js'

// Hostile traffic nobody named: generated scenarios on raw connections to both listeners of the
// built service (valid and invalid requests, pipelining, oversized and trickled headers,
// Transfer-Encoding/Content-Length mixes, half-closes, answers never read, pauses). After each,
// the process is alive, every answer is well-formed HTTP/1.1 and an Error document where it fails
// and may have a body, a fresh request on each listener succeeds, and memory stays bounded.
// A bounded number of scenarios, from a new seed on every run; fast-check prints the seed and the
// shrunk scenario of a failure, and `npm run fuzz -- --seed S --path P` replays it.

const RUNS = 40

describe('the service under generated hostile traffic on both listeners', function () {
  this.timeout(120_000)
  useCurrentBuild()
  let keeper: ServiceKeeper | undefined

  afterEach(async function () {
    await keeper?.stop()
  })

  it(`stays alive, answers well-formed HTTP and Error documents, serves fresh requests and bounds its memory, over ${RUNS} scenarios`, async function () {
    keeper = keepService()
    // Shrinking a failure that kills the service restarts it for each attempt; a short budget
    // keeps the suite's time bounded, and the scenario reported is still one that fails.
    await fc.assert(wireProperty(keeper, { ...DEFAULT_WIRE_FUZZ_SETTINGS, shrinkBudgetMs: 30_000 }), { numRuns: RUNS })
  })
})
