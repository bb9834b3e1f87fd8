import { expect } from 'chai'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { gunzipSync, gzipSync } from 'node:zlib'
import { inserted, storageUnavailable, type InsertOptions, type PlantStore } from '../../../../../core/index.js'
import { finalResponses, openRaw, settlesWithin, type RawConnection } from '../../../../support/raw-http.js'
import { startTestApp, TOKEN, type TestApp } from '../../../../support/http-app.js'

// The time a body takes to arrive counts against the answer's bound: storage is given what is
// left, so a slow body and slow storage together still answer within the bound. Every stage after
// the headers is held to it: a body still arriving, or still being decoded, when it passes is given
// up, and answered 503 then.

const ANSWER_WITHIN_MS = 1_500
const BODY_AFTER_MS = 700

// Storage that takes all the time it is given, as a MongoDB slower than the deadline does.
const slowStore = (given: Array<number | undefined>): PlantStore => ({
  insertUnlessExists: (plant, options?: InsertOptions) => {
    given.push(options?.withinMs)
    return async () => {
      if (options?.withinMs === undefined) return TE.right(inserted(plant))()
      await sleep(Math.max(0, options.withinMs))
      return TE.left(storageUnavailable(new Error('too slow')))()
    }
  },
  checkReady: () => TE.right(undefined),
})

describe('a POST /plants answered within answerWithinMs', function () {
  this.timeout(10_000)
  let app: TestApp | undefined
  after(async function () {
    await app?.close()
  })

  it('gives storage what the body left of the bound, and answers 503 within it', async function () {
    const given: Array<number | undefined> = []
    app = await startTestApp({ plantStore: slowStore(given), answerWithinMs: ANSWER_WITHIN_MS })
    const body = '{"id":1,"name":"Fern"}'
    const connection = await openRaw(app.url)
    const timersLate = timersLateness()
    const started = performance.now()
    connection.write(
      `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    )
    await sleep(BODY_AFTER_MS)
    connection.write(body)
    expect(await settlesWithin(connection.closed, 5_000), 'answered and closed').to.equal(true)
    const took = performance.now() - started
    const lateMs = timersLate()
    expect(finalResponses(connection.received()).map((answer) => answer.status)).to.deep.equal([503])
    expect(given).to.have.length(1)
    expect(given[0], 'ms storage was given').to.be.at.most(ANSWER_WITHIN_MS - BODY_AFTER_MS + 50)
    expect(took, `ms from the headers to the answer (this process's timers up to ${Math.round(lateMs)} ms late)`).to.be.below(
      ANSWER_WITHIN_MS + Math.max(300, 2 * lateMs),
    )
  })

  it('answers 503 by the bound to a body still arriving when it passes', async function () {
    await app?.close()
    app = await startTestApp({ answerWithinMs: SHORT_BOUND_MS })
    const body = '{"id":2,"name":"Fern"}'
    const connection = await openRaw(app.url)
    const timersLate = timersLateness()
    const started = performance.now()
    connection.write(
      `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    )
    const answered = await answerWithin(connection, 5_000)
    const took = performance.now() - started
    const lateMs = timersLate()
    connection.socket.destroy()
    expect(answered, 'answered').to.equal(true)
    expect(took, `ms from the headers to the answer (this process's timers up to ${Math.round(lateMs)} ms late)`).to.be.below(
      SHORT_BOUND_MS + Math.max(LATE_BY_AT_MOST_MS, 2 * lateMs),
    )
    expect(took, 'ms from the headers to the answer').to.be.at.least(SHORT_BOUND_MS - 50)
    expect(finalResponses(connection.received()).map((answer) => answer.status)).to.deep.equal([503])
  })

  it('answers compressed bodies queued behind each other by the bound, those it could not decode 503', async function () {
    this.timeout(20_000)
    await app?.close()
    const limit = 16 * 1024 * 1024
    app = await startTestApp({ answerWithinMs: SHORT_BOUND_MS, bodyLimitBytes: limit }, { maxRequestsWaiting: 64 })
    // Each decodes to the whole limit: decoded one after the other, they take longer than the bound.
    const coded = gzipSync(Buffer.alloc(limit, 'x'))
    // The yardstick: one whole decode, here, just before the requests and just after them. The
    // stage under way when the bound passes is a slice of one, so a busy machine, slower at it,
    // may be that much later.
    const decodeMs = (): number => {
      const decodeStarted = performance.now()
      gunzipSync(coded)
      return performance.now() - decodeStarted
    }
    const decodeBeforeMs = decodeMs()
    const connections = await Promise.all(Array.from({ length: 12 }, () => openRaw(app?.url ?? '')))
    // The other yardstick, taken while the requests are out: how late this process's timers came.
    // The answers past the bound leave when the bound's timer fires, so they are at least that
    // late when the machine, not the service, holds the process up (eight test workers on two
    // cores can, for a few hundred milliseconds).
    const loopDelay = monitorEventLoopDelay({ resolution: 10 })
    loopDelay.enable()
    const started = performance.now()
    const took = await Promise.all(
      connections.map(async (connection) => {
        connection.write(
          `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${coded.length}\r\nConnection: close\r\n\r\n`,
        )
        connection.socket.write(coded)
        await settlesWithin(connection.closed, 10_000)
        return performance.now() - started
      }),
    )
    loopDelay.disable()
    const timersLateByMs = loopDelay.max / 1e6
    const lateByAtMostMs = Math.max(LATE_BY_AT_MOST_MS, 3 * Math.max(decodeBeforeMs, decodeMs()), 2 * timersLateByMs)
    const statuses = connections.map((connection) => finalResponses(connection.received())[0]?.status)
    expect(statuses.every((status) => status === 400 || status === 503), String(statuses)).to.equal(true)
    expect(
      Math.max(...took),
      `ms to the last answer (${took.map(Math.round).join(', ')}; this process's timers up to ${Math.round(timersLateByMs)} ms late)`,
    ).to.be.below(SHORT_BOUND_MS + lateByAtMostMs)
  })
})

const SHORT_BOUND_MS = 300
// What an answer may take past the bound: the stage under way when it passes (a slice of a decode,
// the parse of a body already in), and the event loop's turn.
const LATE_BY_AT_MOST_MS = 250

// The yardstick of the bounds above: how late this process's timers came while the request was
// out (eight test workers on two cores can hold it up for a few hundred milliseconds). An answer
// past the bound leaves when the bound's timer fires, so it is at least that late when the
// machine, not the service, holds the process up. The rule's edges are the unit tier's, on
// virtual time (test/unit/adapters/http/routes/answer-deadline.test.ts, body/body-deadline.test.ts).
const timersLateness = (): (() => number) => {
  const loopDelay = monitorEventLoopDelay({ resolution: 10 })
  loopDelay.enable()
  return () => {
    loopDelay.disable()
    return loopDelay.max / 1e6
  }
}

// Whether a whole final answer came within `ms`.
const answerWithin = async (connection: RawConnection, ms: number): Promise<boolean> => {
  const until = performance.now() + ms
  while (finalResponses(connection.received()).length === 0 && performance.now() < until) await sleep(10)
  return finalResponses(connection.received()).length > 0
}
