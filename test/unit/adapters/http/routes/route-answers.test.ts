import { expect } from 'chai'
import type { IncomingHttpHeaders } from 'node:http'
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import type { Answer } from '../../../../../adapters/http/context/answer.js'
import type { RouteRequest } from '../../../../../adapters/http/context/route.js'
import { readRequestHead } from '../../../../../adapters/http/context/request-head.js'
import { createPlantRoute } from '../../../../../adapters/http/routes/create-plant.js'
import { healthz, readyz } from '../../../../../adapters/http/routes/probes.js'
import { toErrorResponse } from '../../../../../adapters/http/errors/error-response.js'
import { malformedBody, payloadTooLarge, type RequestProblem } from '../../../../../adapters/http/errors/problems.js'
import { parseExactJson } from '../../../../../adapters/http/index.js'
import { storageUnavailable, type PlantStore } from '../../../../../core/index.js'
import { makeInMemoryPlantStore } from '../../../../../adapters/in-memory/index.js'
import { makeStaticTokenAuthenticator } from '../../../../../adapters/static-tokens/index.js'

// The one token the routes' authenticator accepts.
const TOKEN = 'route-token-0123456789abcdef'

// The routes as functions of a parsed request, with no socket and no Koa: what each answers is a
// value, its status, body and subject read off it as the request boundary reads them.

const requestOf = (headers: IncomingHttpHeaders, body: E.Either<RequestProblem, unknown>): RouteRequest & { readonly bodyReads: number } => {
  const request = {
    head: readRequestHead({
      httpVersionMajor: 1,
      httpVersionMinor: 1,
      url: '/plants',
      headers: { host: 'plants.test', ...headers },
      rawHeaders: Object.entries({ host: 'plants.test', ...headers }).flat(),
    } as never),
    bodyReads: 0,
    readJsonBody: () => {
      request.bodyReads += 1
      return TE.fromEither(body)
    },
  }
  return request
}

// A body as the service's reader hands it over: parsed with every integer exact.
const sent = (json: string): E.Either<RequestProblem, unknown> => E.mapLeft(malformedBody)(parseExactJson(json))

const bearer = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }

/** The status and body the boundary writes for an answer, and who it names. */
const seen = (answer: Answer) => {
  switch (answer._tag) {
    case 'Plant':
      return { status: 200, body: JSON.parse(JSON.stringify(answer.plant)) as unknown, subject: answer.subject, route: answer.route }
    case 'Problem': {
      const { status, body } = toErrorResponse(answer.problem)
      return { status, body: body as unknown, subject: answer.subject, route: answer.route }
    }
    case 'Representation':
      return { status: answer.status, body: answer.body === undefined ? undefined : (JSON.parse(answer.body.toString()) as unknown), subject: answer.subject, route: answer.route }
  }
}

describe('routes as functions of the parsed request', function () {
  const route = (plantStore: PlantStore = makeInMemoryPlantStore()) =>
    createPlantRoute({ plantStore, authenticator: makeStaticTokenAuthenticator([TOKEN]), route: '/plants' })

  describe('POST /plants', function () {
    it('answers the stored plant, 200, naming the subject and the route', async function () {
      const answer = seen(await route()(requestOf(bearer, sent('{"id":7,"name":"Monstera","tag":"aroid"}'))))
      expect(answer).to.deep.equal({ status: 200, body: { name: 'Monstera', tag: 'aroid' }, subject: 'static-token-1', route: '/plants' })
    })

    it('refuses a missing token with 401 and no subject, without reading the body', async function () {
      const request = requestOf({ 'content-type': 'application/json' }, sent('{"id":7,"name":"Monstera"}'))
      const answer = seen(await route()(request))
      expect(answer).to.include({ status: 401, subject: undefined, route: '/plants' })
      expect(request.bodyReads).to.equal(0)
    })

    it('refuses a second Authorization line with 401, whatever the first one holds', async function () {
      const plain = requestOf(bearer, sent('{"id":7,"name":"Monstera"}'))
      const request = { ...plain, head: { ...plain.head, authorizationLines: 2 } }
      expect(seen(await route()(request))).to.include({ status: 401, subject: undefined })
    })

    it('answers what the body reader refused with, naming the subject', async function () {
      const answer = seen(await route()(requestOf(bearer, E.left(payloadTooLarge(1024)))))
      expect(answer).to.include({ status: 413, subject: 'static-token-1', route: '/plants' })
    })

    it('names a field the client got wrong in JSON terms, 400', async function () {
      const answer = seen(await route()(requestOf(bearer, sent('{"id":7,"name":5}'))))
      expect(answer).to.include({ status: 400, subject: 'static-token-1' })
      expect(JSON.stringify(answer.body)).to.include('`name` must be a string, not a number')
    })

    it('answers 409 to a different plant under a stored id, and 200 to the same one sent again', async function () {
      const plantStore = makeInMemoryPlantStore()
      const create = route(plantStore)
      expect(seen(await create(requestOf(bearer, sent('{"id":7,"name":"Monstera"}'))))).to.include({ status: 200 })
      expect(seen(await create(requestOf(bearer, sent('{"id":7,"name":"Monstera"}'))))).to.include({ status: 200 })
      expect(seen(await create(requestOf(bearer, sent('{"id":7,"name":"Ficus"}'))))).to.include({ status: 409, subject: 'static-token-1' })
    })
  })

  describe('the probes', function () {
    const store = (ready: boolean): PlantStore => ({
      ...makeInMemoryPlantStore(),
      checkReady: () => (ready ? TE.right(undefined) : TE.left(storageUnavailable(new Error('down')))),
    })

    it('/healthz answers 200 alive', function () {
      expect(seen(healthz('/healthz')())).to.deep.equal({ status: 200, body: { status: 'alive' }, subject: undefined, route: '/healthz' })
    })

    it('/readyz answers 200 while storage answers, 503 when it does not, and 503 while draining', async function () {
      expect(seen(await readyz('/readyz', store(true), () => false, 0)())).to.deep.include({ status: 200, body: { status: 'ready' }, route: '/readyz' })
      expect(seen(await readyz('/readyz', store(false), () => false, 0)())).to.include({ status: 503, route: '/readyz' })
      const drained = await readyz('/readyz', store(true), () => true, 0)()
      expect(drained._tag === 'Problem' && drained.problem._tag).to.equal('ShuttingDown')
      expect(seen(drained)).to.include({ status: 503 })
    })
  })
})
