import { expect } from 'chai'
import { meansStorageUnavailable } from '../../../adapters/mongodb/unavailability.js'

describe('what counts as MongoDB being unavailable', function () {
  it("counts Node's own socket errors that escape the driver (a write after the server closed the socket)", function () {
    const epipe = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' })
    expect(meansStorageUnavailable(epipe)).to.equal(true)
    expect(meansStorageUnavailable(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).to.equal(true)
  })

  it('leaves any other error a defect', function () {
    expect(meansStorageUnavailable(new TypeError('cannot read properties of undefined'))).to.equal(false)
    expect(meansStorageUnavailable(Object.assign(new Error('bad'), { code: 'ERR_INVALID_ARG_TYPE' }))).to.equal(false)
  })
})
