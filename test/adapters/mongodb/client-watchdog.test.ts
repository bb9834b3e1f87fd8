import { expect } from 'chai'
import { makeClientWatchdog } from '../../../adapters/mongodb/client-watchdog.js'

describe('the MongoDB client watchdog', function () {
  const withClock = () => {
    let now = 0
    return { at: (ms: number) => (now = ms), watchdog: makeClientWatchdog(1000, () => now) }
  }

  it('asks for a new client once failures have lasted the whole period, then starts counting again', function () {
    const { at, watchdog } = withClock()
    expect([0, 500, 999].map((ms) => (at(ms), watchdog.failedUnavailable()))).to.deep.equal([false, false, false])
    at(1000)
    expect(watchdog.failedUnavailable()).to.equal(true)
    at(1500)
    expect(watchdog.failedUnavailable()).to.equal(false)
    at(2000)
    expect(watchdog.failedUnavailable()).to.equal(true)
  })

  it('forgets the failures at the first success', function () {
    const { at, watchdog } = withClock()
    watchdog.failedUnavailable()
    at(900)
    watchdog.succeeded()
    at(1100)
    expect(watchdog.failedUnavailable()).to.equal(false)
    at(2000)
    expect(watchdog.failedUnavailable()).to.equal(false)
    at(2100)
    expect(watchdog.failedUnavailable()).to.equal(true)
  })
})
