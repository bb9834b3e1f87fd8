import { expect } from 'chai'
import { inRunsWithRoom } from '../../support/yardstick.js'

// A mocha context of which inRunsWithRoom reads its timeout and its title, and which it skips.
const contextOf = (timeoutMs: number): { readonly context: Mocha.Context; readonly skipped: () => boolean } => {
  let skipped = false
  const context = {
    timeout: () => timeoutMs,
    test: { fullTitle: () => "inRunsWithRoom's own test (a pending run it expects)" },
    skip: () => {
      skipped = true
    },
  }
  return { context: context as unknown as Mocha.Context, skipped: () => skipped }
}

// Holds this process's event loop up for `ms`, as a busy machine would.
const holdUp = (ms: number): void => {
  const until = performance.now() + ms
  while (performance.now() < until);
}

const failing = (): Promise<void> => Promise.reject(new Error('the test\'s own failure'))

describe('inRunsWithRoom: a real-time outcome is evidence only from a run that had its room', function () {
  this.timeout(10_000)

  it('throws the failure of a run that had the room, after one try', async function () {
    const { context, skipped } = contextOf(10_000)
    let tries = 0
    const outcome = await inRunsWithRoom(context, () => 10_000, () => ((tries += 1), failing())).then(
      () => 'passed',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    )
    expect(outcome).to.equal('the test\'s own failure')
    expect(tries).to.equal(1)
    expect(skipped()).to.equal(false)
  })

  it('tries again after a failure in a run held up past the room, and passes with the try that passes', async function () {
    const { context, skipped } = contextOf(10_000)
    let tries = 0
    await inRunsWithRoom(context, () => 1, async () => {
      tries += 1
      if (tries === 1) {
        await new Promise((resolve) => setTimeout(resolve, 10))
        holdUp(60)
        await new Promise((resolve) => setTimeout(resolve, 10))
        throw new Error('held up')
      }
    })
    expect(tries).to.equal(2)
    expect(skipped()).to.equal(false)
  })

  it('is pending when no try had the room, and starts no try the test\'s time could not finish', async function () {
    const heldUpThenFailing = async (): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, 10))
      holdUp(60)
      await new Promise((resolve) => setTimeout(resolve, 10))
      throw new Error('held up')
    }
    const roomy = contextOf(10_000)
    let tries = 0
    await inRunsWithRoom(roomy.context, () => 1, () => ((tries += 1), heldUpThenFailing()))
    expect(tries, 'tries within a long test time').to.equal(3)
    expect(roomy.skipped(), 'pending').to.equal(true)

    // A try takes about 80 ms: in a test of 120 ms a second one would not end in time.
    const short = contextOf(120)
    tries = 0
    await inRunsWithRoom(short.context, () => 1, () => ((tries += 1), heldUpThenFailing()))
    expect(tries, 'tries within 120 ms').to.equal(1)
    expect(short.skipped(), 'pending').to.equal(true)
  })
})
