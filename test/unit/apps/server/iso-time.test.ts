import { expect } from 'chai'
import fc from 'fast-check'
import { pino } from 'pino'
import { makeIsoTime } from '../../../../apps/server/iso-time.js'

describe('the log lines\' ISO time', function () {
  it('writes what pino.stdTimeFunctions.isoTime writes, for any instant, in any order', function () {
    const instants = fc.array(fc.integer({ min: 0, max: 4_102_444_800_000 }), { minLength: 1, maxLength: 20 })
    fc.assert(
      fc.property(instants, (times) => {
        let current = 0
        const isoTime = makeIsoTime(() => current)
        for (const time of times) {
          current = time
          const realNow = Date.now
          Date.now = () => time
          try {
            expect(isoTime()).to.equal(pino.stdTimeFunctions.isoTime())
          } finally {
            Date.now = realNow
          }
        }
      }),
    )
  })

  it('keeps the milliseconds of instants within one second apart', function () {
    let current = Date.UTC(2026, 10, 22, 21, 0, 5, 7)
    const isoTime = makeIsoTime(() => current)
    expect(isoTime()).to.equal(',"time":"2026-11-22T21:00:05.007Z"')
    current += 993
    expect(isoTime()).to.equal(',"time":"2026-11-22T21:00:06.000Z"')
    current -= 1
    expect(isoTime()).to.equal(',"time":"2026-11-22T21:00:05.999Z"')
  })
})
