import { expect } from 'chai'
import { traceParentFrom } from '../../../../../adapters/http/request/trace-parent.js'
import { postPlant, useTestApp } from '../../../../support/http-app.js'

// A W3C traceparent is honoured with no tracer configured: its trace id is on the request's log
// line. One that is not valid is ignored, never refused.

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT_ID = '00f067aa0ba902b7'
const VALID = `00-${TRACE_ID}-${PARENT_ID}-01`

const INVALID: ReadonlyArray<readonly [string, string]> = [
  ['upper-case hex', `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`],
  ['an all-zero trace id', `00-${'0'.repeat(32)}-${PARENT_ID}-01`],
  ['an all-zero parent id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
  ['version ff', `ff-${TRACE_ID}-${PARENT_ID}-01`],
  ['version 00 with a fifth field', `${VALID}-extra`],
  ['a short trace id', `00-${TRACE_ID.slice(1)}-${PARENT_ID}-01`],
  ['no flags', `00-${TRACE_ID}-${PARENT_ID}`],
  ['words', 'not a traceparent'],
]

describe('traceparent', function () {
  describe('traceParentFrom', function () {
    it('reads a valid header, and a later version with more fields', function () {
      expect(traceParentFrom(VALID)).to.deep.equal({ traceId: TRACE_ID, parentId: PARENT_ID, flags: 1 })
      expect(traceParentFrom(`01-${TRACE_ID}-${PARENT_ID}-00-what-comes-next`)).to.deep.equal({ traceId: TRACE_ID, parentId: PARENT_ID, flags: 0 })
    })

    for (const [label, header] of INVALID) {
      it(`ignores ${label}`, function () {
        expect(traceParentFrom(header)).to.equal(undefined)
      })
    }
  })

  describe('on the request log line, with no tracer', function () {
    const app = useTestApp()

    const lineOf = (requestId: string): Record<string, unknown> | undefined =>
      app.log.lines.find((line) => line['requestId'] === requestId && line['msg'] === 'request')

    it("carries the traceparent's trace id, on the operation and on the probes", async function () {
      const created = await postPlant(app.url, '{"id":1,"name":"x"}', { traceparent: VALID, 'X-Request-Id': 'traced-post' })
      expect(created.status).to.equal(200)
      await created.arrayBuffer()
      const probe = await fetch(`${app.url}/healthz`, { headers: { traceparent: VALID, 'X-Request-Id': 'traced-probe' } })
      await probe.arrayBuffer()
      expect(lineOf('traced-post')).to.include({ traceId: TRACE_ID, status: 200 })
      expect(lineOf('traced-probe')).to.include({ traceId: TRACE_ID, status: 200 })
      expect(lineOf('traced-post')).to.not.have.property('spanId')
    })

    it('ignores an invalid traceparent: the request is answered as without one, and its line has no trace id', async function () {
      for (const [label, header] of INVALID) {
        const requestId = `untraced-${label.replace(/\W+/g, '-')}`
        const answer = await postPlant(app.url, '{"id":2,"name":"x"}', { traceparent: header, 'X-Request-Id': requestId })
        expect(answer.status, label).to.equal(200)
        await answer.arrayBuffer()
        expect(lineOf(requestId), label).to.not.have.property('traceId')
      }
    })
  })
})
