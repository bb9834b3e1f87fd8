import { expect } from 'chai'
import { parseCoreList, pinned, planPinning } from '../../../bench/http/pinning.js'

describe('the HTTP benchmark pinning', () => {
  it("reads taskset's core lists", () => {
    expect(parseCoreList('0,1')).to.deep.equal([0, 1])
    expect(parseCoreList('0-3,6')).to.deep.equal([0, 1, 2, 3, 6])
    expect(parseCoreList('5')).to.deep.equal([5])
    expect(parseCoreList('3-1')).to.equal(undefined)
    expect(parseCoreList('')).to.equal(undefined)
    expect(parseCoreList('a')).to.equal(undefined)
  })

  it('on two cores puts the server on one, the load generator and the wire peer on the other, and says so', () => {
    const plan = planPinning([0, 1])
    expect(plan).to.include({ load: '0', server: '1', peer: '0' })
    expect(plan.description).to.include('the server on core 1').and.include('the wire peer sharing core 0 with the load generator')
  })

  it('gives the wire peer cores of its own when there are more', () => {
    const plan = planPinning([2, 3, 4, 5])
    expect(plan).to.include({ load: '2', server: '3', peer: '4,5' })
    expect(plan.description).to.include('the wire peer on core(s) 4,5')
  })

  it('pins nothing on one core or without taskset, and says why', () => {
    const one = planPinning([0])
    expect(one).to.include({ load: undefined, server: undefined, peer: undefined })
    expect(one.description).to.include('not pinned').and.include('only core 0')
    expect(planPinning(undefined).description).to.include('not pinned').and.include('taskset')
  })

  it('runs a command under taskset only when given cores', () => {
    expect(pinned('1', 'wrk', ['-c', '5'])).to.deep.equal({ command: 'taskset', args: ['-c', '1', 'wrk', '-c', '5'] })
    expect(pinned(undefined, 'wrk', ['-c', '5'])).to.deep.equal({ command: 'wrk', args: ['-c', '5'] })
  })
})
