import { expect } from 'chai'
import { systemClock } from '../../../wire/index.js'

describe('the system clock', () => {
  it('runs a timer once, after its delay, and not one cancelled', async () => {
    const ran: string[] = []
    const started = systemClock.now()
    systemClock.setTimer(-5, () => ran.push('due at once'))
    systemClock.setTimer(20, () => ran.push('after 20 ms'))
    const cancel = systemClock.setTimer(10, () => ran.push('cancelled'))
    cancel()
    expect(ran, 'never synchronously').to.deep.equal([])
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(ran).to.deep.equal(['due at once', 'after 20 ms'])
    // Node's timers count whole milliseconds of the loop's time, which may trail performance.now by one.
    expect(systemClock.now() - started).to.be.at.least(59)
    cancel()
  })

  it('reads the epoch as Date.now does', () => {
    const before = Date.now()
    const read = systemClock.epochMs()
    expect(read).to.be.within(before, Date.now())
  })
})
