import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { delay, inserted, type Authenticator, type InsertOptions, type PlantStore } from '../../../../../core/index.js'
import type { RouteRequest } from '../../../../../adapters/http/context/route.js'
import { readRequestHead } from '../../../../../adapters/http/context/request-head.js'
import { createPlantRoute } from '../../../../../adapters/http/routes/create-plant.js'
import { makeStaticTokenAuthenticator } from '../../../../../adapters/static-tokens/index.js'
import { parseExactJson } from '../../../../../adapters/http/index.js'
import { virtualClock } from '../../../../support/virtual-clock.js'

const TOKEN = 'deadline-token-0123456789abcdef'

// The rule, as CreatePlantRouteDeps.answerWithinMs states it: from the request's headers, every
// stage after them runs within what the stages before it left: the body is read by the deadline
// answerWithinMs after the headers, and storage is given what is left of it once the body is in.
describe("POST /plants' answer deadline, on virtual time", () => {
  it('gives the body the deadline and storage what the token check and the body left of it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 0, max: 1_000 }),
        async (answerWithinMs, tokenMs, bodyMs, headersAt) => {
          const { clock, advanceAsync } = virtualClock()
          const checked = makeStaticTokenAuthenticator([TOKEN])
          const authenticator: Authenticator = {
            verify: (token) => async () => {
              await delay(clock, tokenMs)
              return checked.verify(token)()
            },
          }
          const given: Array<{ readonly at: number; readonly options: InsertOptions | undefined }> = []
          const plantStore: PlantStore = {
            insertUnlessExists: (plant, options) => () => {
              given.push({ at: clock.now(), options })
              return Promise.resolve(E.right(inserted(plant)))
            },
            checkReady: () => () => Promise.resolve(E.right(undefined)),
          }
          const deadlines: number[] = []
          const headers = { host: 'plants.test', authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }
          const request: RouteRequest = {
            head: readRequestHead({ httpVersionMajor: 1, httpVersionMinor: 1, url: '/plants', headers, rawHeaders: Object.entries(headers).flat() } as never),
            readJsonBody: (deadline) => async () => {
              deadlines.push(deadline)
              await delay(clock, bodyMs)
              return E.mapLeft(() => undefined as never)(parseExactJson('{"id":1,"name":"Fern"}'))
            },
          }
          const route = createPlantRoute({ plantStore, authenticator, route: '/plants', answerWithinMs, clock })
          await advanceAsync(headersAt)
          const answered = route(request)
          await advanceAsync(tokenMs + bodyMs + 10)
          expect((await answered)._tag).to.equal('Plant')
          expect(deadlines).to.deep.equal([headersAt + answerWithinMs])
          // Storage is called once the token and the body are in (a zero wait set while time moves
          // lasts a millisecond on fake-timers), with the rest of the deadline.
          expect(given).to.have.lengthOf(1)
          const [{ at, options } = { at: NaN, options: undefined }] = given
          expect(at).to.be.at.least(headersAt + tokenMs + bodyMs)
          expect(options).to.deep.equal({ withinMs: headersAt + answerWithinMs - at })
        },
      ),
    )
  })
})
