import { expect } from 'chai'
import { authParam, retryAfterSeconds } from '../../../../adapters/http-client/response-headers.js'

describe('the client reading what the service says', function () {
  describe('authParam', function () {
    const header = 'Bearer realm="plant-store", error="insufficient_scope", scope="plants:write \\"x\\""'
    it('reads quoted parameters, unescaping them', function () {
      expect(authParam(header, 'error')).to.equal('insufficient_scope')
      expect(authParam(header, 'scope')).to.equal('plants:write "x"')
    })

    it('reads token parameters, and nothing from a missing header or parameter', function () {
      expect(authParam('Bearer error=invalid_token', 'error')).to.equal('invalid_token')
      expect(authParam('Bearer realm="plant-store"', 'error')).to.equal(undefined)
      expect(authParam(null, 'error')).to.equal(undefined)
    })
  })

  describe('retryAfterSeconds', function () {
    const now = Date.parse('2026-01-01T00:00:00Z')
    it('reads delta-seconds and HTTP-dates', function () {
      expect(retryAfterSeconds('1', now)).to.equal(1)
      expect(retryAfterSeconds(' 120 ', now)).to.equal(120)
      expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:30 GMT', now)).to.equal(30)
      expect(retryAfterSeconds('Wed, 31 Dec 2025 23:59:00 GMT', now)).to.equal(0)
    })

    it('answers undefined when there is no header or it says neither', function () {
      expect(retryAfterSeconds(null, now)).to.equal(undefined)
      expect(retryAfterSeconds('soon', now)).to.equal(undefined)
      expect(retryAfterSeconds('-1', now)).to.equal(undefined)
    })
  })
})
