import { expect } from 'chai'
import { makeClientWatchdog } from '../../../../adapters/mongodb/client-watchdog.js'

describe('the MongoDB client watchdog', function () {
  const withClock = () => {
    let now = 0
    return { at: (ms: number) => (now = ms), watchdog: makeClientWatchdog(1000, () => now) }
  }

  it('asks for a new client once failures have lasted the whole period, then starts counting again', function () {
    const { at, watchdog } = withClock()
    expect([0, 500, 999].map((ms) => (at(ms), watchdog.failedUnreachable()))).to.deep.equal([false, false, false])
    at(1000)
    expect(watchdog.failedUnreachable()).to.equal(true)
    at(1500)
    expect(watchdog.failedUnreachable()).to.equal(false)
    at(2000)
    expect(watchdog.failedUnreachable()).to.equal(true)
  })

  it('forgets the failures at the first success', function () {
    const { at, watchdog } = withClock()
    watchdog.failedUnreachable()
    at(900)
    watchdog.succeeded()
    at(1100)
    expect(watchdog.failedUnreachable()).to.equal(false)
    at(2000)
    expect(watchdog.failedUnreachable()).to.equal(false)
    at(2100)
    expect(watchdog.failedUnreachable()).to.equal(true)
  })
})
