import { expect } from 'chai'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { setTimeout as sleep } from 'node:timers/promises'
import { inserted, storageUnavailable, type InsertOptions, type PlantStore } from '../../../../core/index.js'
import { finalResponses, openRaw, settlesWithin } from '../../../support/raw-http.js'
import { startTestApp, TOKEN, type TestApp } from '../../../support/http-app.js'

// The time a body takes to arrive counts against the answer's bound: storage is given what is
// left, so a slow body and slow storage together still answer within the bound.

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
    const started = performance.now()
    connection.write(
      `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    )
    await sleep(BODY_AFTER_MS)
    connection.write(body)
    expect(await settlesWithin(connection.closed, 5_000), 'answered and closed').to.equal(true)
    const took = performance.now() - started
    expect(finalResponses(connection.received()).map((answer) => answer.status)).to.deep.equal([503])
    expect(given).to.have.length(1)
    expect(given[0], 'ms storage was given').to.be.at.most(ANSWER_WITHIN_MS - BODY_AFTER_MS + 50)
    expect(took, 'ms from the headers to the answer').to.be.below(ANSWER_WITHIN_MS + 300)
  })
})
