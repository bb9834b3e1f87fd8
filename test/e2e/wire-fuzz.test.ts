import { expect } from 'chai'
import fc from 'fast-check'
import { useCurrentBuild } from '../support/current-build.js'
import { transcriptProblems } from '../support/wire-fuzz/run-scenario.js'
import { keepService, type ServiceKeeper } from '../support/wire-fuzz/service-under-fuzz.js'
import type { Transcript } from '../support/wire-fuzz/wire-connection.js'
import { DEFAULT_WIRE_FUZZ_SETTINGS, wireProperty } from '../support/wire-fuzz/wire-property.js'
import { propertyRuns } from '../support/property-runs.js'

// Hostile traffic nobody named: generated scenarios on raw connections to both listeners of the
// built service, at its default time-outs, with JWT and static tokens configured (valid and
// invalid requests, pipelining, oversized and trickled headers, Transfer-Encoding/Content-Length
// mixes, HEAD, /docs and its bundle, long and malformed Accept-Encoding, If-None-Match and
// traceparent, compressed bodies whole and damaged, forged JWTs, half-closes, answers never read,
// pauses past the time-outs, crowds of connections from several loopback addresses, and a SIGTERM
// part-way). After each, the process is alive, every answer is well-formed HTTP/1.1, an Error
// document where it fails and may have a body, and no 5xx but a 503 with Retry-After; legitimate
// clients are served while the scenario holds its connections and after; memory stays bounded;
// and a SIGTERM ends the process within its drain, grace and exit flush. A few scenarios, from a
// new seed on every run (the default time-outs make each take seconds); fast-check prints the
// seed and the shrunk scenario of a failure, `npm run fuzz -- --seed S --path P` replays it, and
// `npm run fuzz -- --runs N` is the long run.

const RUNS = propertyRuns(20)
const STOP_RUNS = propertyRuns(2)

describe('the service under generated hostile traffic on both listeners, at its default time-outs', function () {
  // A passing run takes well under a minute; a failing one has its shrinking to do as well.
  this.timeout(120_000)
  useCurrentBuild()
  let keeper: ServiceKeeper | undefined

  afterEach(async function () {
    await keeper?.stop()
  })

  // Shrinking a failure that kills the service restarts it for each attempt; a short budget
  // keeps the suite's time bounded, and the scenario reported is still one that fails. The pause
  // past the headers time-out (10 s) is left to `npm run fuzz`.
  const settings = { ...DEFAULT_WIRE_FUZZ_SETTINGS, maxActions: 6, shrinkBudgetMs: 15_000, longPausesMs: DEFAULT_WIRE_FUZZ_SETTINGS.longPausesMs.slice(0, 2) }

  it(`stays alive, answers well-formed HTTP and Error documents, serves legitimate clients beside crowds and bounds its memory, over ${RUNS} scenarios`, async function () {
    keeper = keepService()
    await fc.assert(wireProperty(keeper, { ...settings, crowdOdds: 0.5, stopOdds: 0 }), { numRuns: RUNS })
  })

  it(`exits within its drain, grace and exit flush after a SIGTERM part-way, whatever its log readers do, over ${STOP_RUNS} scenarios`, async function () {
    keeper = keepService()
    await fc.assert(wireProperty(keeper, { ...settings, crowdOdds: 0.5, stopOdds: 1 }), { numRuns: STOP_RUNS })
  })
})

// The judge must be able to fail: each kind of answer it refuses, beside answers it accepts.
describe('the wire fuzzer\'s judge of what a connection received', function () {
  const judged = (text: string, transcript: Partial<Transcript> = {}): ReadonlyArray<string> =>
    transcriptProblems({
      received: Buffer.from(text, 'latin1'),
      endedByServer: false,
      failed: false,
      stoppedReading: false,
      resetByClient: false,
      ...transcript,
    })
  const errorDocument = '{"error":404,"message":"Nothing here."}'
  const notFound = `HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: ${errorDocument.length}\r\n\r\n${errorDocument}`

  it('accepts Error documents framed by length, chunks, or the close, after an interim 100', function () {
    expect(judged(`HTTP/1.1 100 Continue\r\n\r\n${notFound}`)).to.deep.equal([])
    const chunked = `HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${errorDocument.length.toString(16)}\r\n${errorDocument}\r\n0\r\n\r\n`
    expect(judged(chunked)).to.deep.equal([])
    const closeDelimited = `HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${errorDocument}`
    expect(judged(closeDelimited, { endedByServer: true })).to.deep.equal([])
    expect(judged('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')).to.deep.equal([])
  })

  it('accepts an answer cut short by the client, and one still coming', function () {
    expect(judged(notFound.slice(0, -5), { resetByClient: true, endedByServer: false })).to.deep.equal([])
    expect(judged(notFound.slice(0, 20))).to.deep.equal([])
  })

  it('refuses a failure that is no Error document', function () {
    expect(judged('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n')).to.have.length(1)
    expect(judged('HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nno')).to.have.length(1)
    const wrongStatus = '{"error":400,"message":"x"}'
    expect(judged(`HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: ${wrongStatus.length}\r\n\r\n${wrongStatus}`)).to.have.length(1)
    const extraField = '{"error":404,"message":"x","stack":"at"}'
    expect(judged(`HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: ${extraField.length}\r\n\r\n${extraField}`)).to.have.length(1)
  })

  it('refuses malformed HTTP: no status line, a bad field, both framings, no framing, bytes after a close', function () {
    expect(judged('garbage\r\n\r\n')).to.have.length(1)
    expect(judged('HTTP/1.1 200 OK\r\nbad field\r\nContent-Length: 0\r\n\r\n')).to.have.length(1)
    expect(judged('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n')).to.have.length(1)
    expect(judged('HTTP/1.1 200 OK\r\n\r\nok')).to.have.length(1)
    expect(judged('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok')).to.have.length(1)
    expect(judged(`HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok${notFound}`)).to.have.length(1)
  })

  it('refuses an answer the server cut while the client was reading', function () {
    expect(judged(notFound.slice(0, -5), { endedByServer: true })).to.have.length(1)
  })

  it('reads answers to HEAD as bodiless, whatever length they announce', function () {
    const head = (text: string): ReadonlyArray<string> =>
      transcriptProblems({ received: Buffer.from(text, 'latin1'), endedByServer: false, failed: false, stoppedReading: false, resetByClient: false }, true)
    expect(head('HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 40\r\n\r\n')).to.deep.equal([])
    expect(head('HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\nok')).to.have.length(1)
    expect(head(`HTTP/1.1 431 X\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: 31\r\n\r\n{"error":431,"message":"Large"}`)).to.deep.equal([])
  })

  it('refuses every 5xx but a 503 with Retry-After', function () {
    const answer = (status: number, extra: string): string => {
      const body = `{"error":${status},"message":"x"}`
      return `HTTP/1.1 ${status} X\r\nContent-Type: application/json\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`
    }
    expect(judged(answer(503, 'Retry-After: 1\r\n'))).to.deep.equal([])
    expect(judged(answer(503, ''))).to.have.length(1)
    expect(judged(answer(500, ''))).to.have.length(1)
    expect(judged(answer(502, 'Retry-After: 1\r\n'))).to.have.length(1)
  })
})
