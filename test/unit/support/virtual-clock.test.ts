import { expect } from 'chai'
import { virtualClock } from '../../support/virtual-clock.js'

describe('the virtual clock the policy tests run on', () => {
  it('moves only when told, running due timers in order and none cancelled', () => {
    const { clock, advance, pendingTimers } = virtualClock()
    const ran: Array<[string, number]> = []
    clock.setTimer(30, () => ran.push(['30', clock.now()]))
    clock.setTimer(10, () => ran.push(['10', clock.now()]))
    const cancel = clock.setTimer(20, () => ran.push(['20', clock.now()]))
    cancel()
    expect(pendingTimers()).to.equal(2)
    advance(29)
    expect(ran).to.deep.equal([['10', 10]])
    advance(1)
    expect(ran).to.deep.equal([['10', 10], ['30', 30]])
    expect(clock.now()).to.equal(30)
    expect(pendingTimers()).to.equal(0)
  })

  it('lets promises settle between timers when advanced asynchronously', async () => {
    const { clock, advanceAsync } = virtualClock(Date.UTC(2030, 0, 1))
    const seen: number[] = []
    clock.setTimer(5, () => void Promise.resolve().then(() => clock.setTimer(5, () => seen.push(clock.now()))))
    await advanceAsync(10)
    expect(seen).to.deep.equal([10])
    expect(clock.epochMs()).to.equal(Date.UTC(2030, 0, 1) + 10)
  })
})
