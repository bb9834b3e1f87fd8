import { Validator } from '@seriousme/openapi-schema-validator'
import { expect } from 'chai'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { parseExactJson } from '../../../../../wire/exact-json/index.js'
import { openApiText } from '../../../../../adapters/http/openapi/document-text.js'
import {
  expectationFailed,
  headersTooLarge,
  malformedBody,
  malformedRequest,
  methodNotAllowed,
  methodNotImplemented,
  unknownMethod,
  unknownTransferCoding,
  payloadTooLarge,
  requestTimeout,
  routeNotFound,
  shuttingDown,
  decodersBusy,
  connectionsOverShare,
  deadlinePassed,
  unexpectedFailure,
  unsupportedMediaType,
} from '../../../../../adapters/http/errors/problems.js'
import { toErrorResponse, type Problem } from '../../../../../adapters/http/errors/error-response.js'
import { openApiDocument } from '../../../../../adapters/http/openapi/document.js'
import { operationErrors } from '../../../../../adapters/http/openapi/error-answers.js'
import type { OpenApiDocument } from '../../../../../adapters/http/openapi/document-shape.js'
import {
  authenticationUnavailable,
  insufficientScope,
  invalidInput,
  plantConflict,
  storageFull,
  storageUnavailable,
  unauthenticated,
  WellFormedString,
  type PlantId,
} from '../../../../../core/index.js'
import { startTestApp } from '../../../../support/http-app.js'
import { TEST_BODY_LIMIT_BYTES } from '../../../../support/limits.js'
import { makeTrafficChecker, schemaValidatorFor, type Exchange } from '../../../../support/openapi-traffic.js'

// One problem of every kind the error mapper knows: a new kind does not compile until it is here.
const EVERY_PROBLEM: { readonly [Tag in Problem['_tag']]: Extract<Problem, { _tag: Tag }> } = {
  InvalidInput: invalidInput([{ path: 'name', expected: 'a string' }]) as Extract<Problem, { _tag: 'InvalidInput' }>,
  MalformedBody: malformedBody('x') as Extract<Problem, { _tag: 'MalformedBody' }>,
  MalformedRequest: malformedRequest as Extract<Problem, { _tag: 'MalformedRequest' }>,
  Unauthenticated: unauthenticated('Invalid', 'no'),
  InsufficientScope: insufficientScope('plants:write'),
  RouteNotFound: routeNotFound as Extract<Problem, { _tag: 'RouteNotFound' }>,
  MethodNotAllowed: methodNotAllowed(['POST']) as Extract<Problem, { _tag: 'MethodNotAllowed' }>,
  RequestTimeout: requestTimeout as Extract<Problem, { _tag: 'RequestTimeout' }>,
  PlantConflict: plantConflict(1n as PlantId),
  PayloadTooLarge: payloadTooLarge(10) as Extract<Problem, { _tag: 'PayloadTooLarge' }>,
  UnsupportedMediaType: unsupportedMediaType('x') as Extract<Problem, { _tag: 'UnsupportedMediaType' }>,
  HeadersTooLarge: headersTooLarge as Extract<Problem, { _tag: 'HeadersTooLarge' }>,
  StorageUnavailable: storageUnavailable(new Error('down')),
  AuthenticationUnavailable: authenticationUnavailable(new Error('down')),
  UnexpectedFailure: unexpectedFailure(new Error('bug')) as Extract<Problem, { _tag: 'UnexpectedFailure' }>,
  ExpectationFailed: expectationFailed as Extract<Problem, { _tag: 'ExpectationFailed' }>,
  MethodNotImplemented: methodNotImplemented as Extract<Problem, { _tag: 'MethodNotImplemented' }>,
  UnknownMethod: unknownMethod as Extract<Problem, { _tag: 'UnknownMethod' }>,
  UnknownTransferCoding: unknownTransferCoding as Extract<Problem, { _tag: 'UnknownTransferCoding' }>,
  ShuttingDown: shuttingDown as Extract<Problem, { _tag: 'ShuttingDown' }>,
  DecodersBusy: decodersBusy as Extract<Problem, { _tag: 'DecodersBusy' }>,
  ConnectionsOverShare: connectionsOverShare as Extract<Problem, { _tag: 'ConnectionsOverShare' }>,
  DeadlinePassed: deadlinePassed as Extract<Problem, { _tag: 'DeadlinePassed' }>,
  StorageFull: storageFull('10 plants'),
}

interface Response {
  readonly headers?: Record<string, { readonly required?: boolean }>
  readonly content?: Record<string, { readonly schema?: unknown; readonly example?: unknown; readonly examples?: Record<string, { value: unknown }> }>
}

/** Every documented answer, resolved: where it is, its status, the response. */
const everyAnswer = (document: OpenApiDocument): ReadonlyArray<{ where: string; status: string; response: Response }> => {
  const resolve = (response: object): Response =>
    '$ref' in response
      ? (document.components.responses[String(response.$ref).replace('#/components/responses/', '')] as Response)
      : (response as Response)
  const answers: Array<{ where: string; status: string; response: Response }> = []
  const add = (where: string, responses: Record<string, object> | undefined) => {
    for (const [status, response] of Object.entries(responses ?? {})) answers.push({ where, status, response: resolve(response) })
  }
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method.startsWith('x-')) add(`${path} ${method}`, operation as Record<string, object>)
      else if (typeof operation === 'object' && 'responses' in operation) add(`${method} ${path}`, operation.responses as Record<string, object>)
    }
  }
  add('unknown path', document['x-unknown-path-responses'])
  return answers
}

const examplesOf = (response: Response): ReadonlyArray<unknown> =>
  Object.values(response.content ?? {}).flatMap((media) => [
    ...(media.example === undefined ? [] : [media.example]),
    ...Object.values(media.examples ?? {}).map((example) => example.value),
  ])

/** A JSON Schema 2020-12 validator for one of the document's schemas, with the `u` flag on patterns. */
const schemaValidator = (document: OpenApiDocument, name: string) =>
  schemaValidatorFor(document).compile({ $ref: `openapi.json#/components/schemas/${name}` })

describe('the OpenAPI document', function () {
  const document = openApiDocument('', { bodyLimitBytes: TEST_BODY_LIMIT_BYTES })

  describe('as a whole', function () {
    for (const basePath of ['', '/api/v1']) {
      it(`is a valid OpenAPI 3.1 document by the official JSON schema (base path '${basePath}')`, async function () {
        const validator = new Validator()
        const result = await validator.validate(structuredClone(openApiDocument(basePath, { bodyLimitBytes: TEST_BODY_LIMIT_BYTES })) as unknown as Record<string, unknown>)
        expect(result.errors, JSON.stringify(result.errors, null, 2)).to.equal(undefined)
        expect(result.valid).to.equal(true)
        expect(validator.version).to.equal('3.1')
      })
    }

    it('is checked by a validator that does refuse a broken document (dangling reference)', async function () {
      const broken = structuredClone(document) as unknown as { paths: Record<string, { post: { responses: Record<string, unknown> } }> }
      const createPlant = broken.paths['/plants']?.post ?? expect.fail('no POST /plants')
      createPlant.responses['409'] = { $ref: '#/components/responses/Missing' }
      const result = await new Validator().validate(broken as unknown as Record<string, unknown>)
      expect(result.valid).to.equal(false)
      expect(JSON.stringify(result.errors)).to.include('#/components/responses/Missing')
    })

    it('shows an id above 2^53 in its examples, served with its exact digits', async function () {
      const app = await startTestApp()
      try {
        const text = await (await fetch(`${app.url}/openapi.json`)).text()
        const exact = parseExactJson(text)
        if (E.isLeft(exact)) return expect.fail(exact.left)
        const served = exact.right as { paths: Record<string, { post: { requestBody: { content: Record<string, { example: { id: unknown } }> } } }>; components: { schemas: { NewPlant: { properties: { id: { examples: unknown[] } } } } } }
        expect(served.paths['/plants']?.post.requestBody.content['application/json']?.example.id).to.equal(9007199254740993n)
        expect(served.components.schemas.NewPlant.properties.id.examples).to.deep.equal([9007199254740993n])
        expect(text).to.include('9007199254740993 and 9007199254740992 are two')
      } finally {
        await app.close()
      }
    })

    it('is served at GET /openapi.json as built for the base path the app runs under', async function () {
      for (const basePath of ['', '/api/v1']) {
        const app = await startTestApp({ basePath })
        try {
          const served: unknown = await (await fetch(`${app.url}/openapi.json`)).json()
          expect(served).to.deep.equal(JSON.parse(openApiText(openApiDocument(basePath, { bodyLimitBytes: TEST_BODY_LIMIT_BYTES }))))
          expect(Object.keys((served as OpenApiDocument).paths)).to.include(`${basePath}/plants`)
        } finally {
          await app.close()
        }
      }
    })
  })

  describe('and the error mapper', function () {
    it('documents every status the mapper can answer, with every header it sets as required', function () {
      const answers = everyAnswer(document)
      for (const [tag, problem] of Object.entries(EVERY_PROBLEM)) {
        const { status, headers } = toErrorResponse(problem)
        const documented = answers.filter((answer) => answer.status === String(status))
        expect(documented.length, `${tag}: no documented ${status}`).to.be.greaterThan(0)
        const describing = documented.filter(({ response }) =>
          Object.keys(headers).every((name) => response.headers?.[name]?.required === true),
        )
        expect(describing.length, `${tag}: no ${status} answer requires ${Object.keys(headers).join(', ')}`).to.be.greaterThan(0)
      }
    })

    it('shows, in every Error example, the status it is documented under', function () {
      for (const { where, status, response } of everyAnswer(document)) {
        for (const example of examplesOf(response)) {
          if (typeof example === 'object' && example !== null && 'error' in example) {
            expect(example, `${where} ${status}`).to.have.property('error', Number(status))
          }
        }
      }
    })

    it("takes its Error examples from the mapper: each is an answer the mapper gives", function () {
      const given = Object.values(EVERY_PROBLEM).map((problem) => toErrorResponse(problem).status)
      // Errors only: a 304 (a cached /docs file still current) or a 204 (a CORS preflight) is none.
      for (const { where, status, response } of everyAnswer(document)) {
        if (Number(status) >= 400) {
          expect(given, `${where}: ${status} is a status the mapper never gives`).to.include(Number(status))
          expect(examplesOf(response).length, `${where} ${status}: no example`).to.be.greaterThan(0)
        }
      }
    })

    it("refuses an operation that lists an Error answer under a status the mapper does not give it", function () {
      expect(operationErrors([[400, 'BadRequest'], [409, 'Conflict']])).to.deep.equal(['BadRequest', 'Conflict'])
      expect(() => operationErrors([[409, 'BadRequest']])).to.throw(TypeError, 'lists BadRequest under 409, but it is answered 400')
    })
  })

  describe('schemas, read by a JSON Schema validator', function () {
    const newPlant = schemaValidator(document, 'NewPlant')
    const plant = schemaValidator(document, 'Plant')

    it('NewPlant takes what the service takes: an integer id, a string name, an optional string tag', function () {
      expect(newPlant({ id: 10, name: 'Monstera' })).to.equal(true)
      expect(newPlant({ id: 10, name: 'Monstera', tag: 'aroid', colour: 'green' })).to.equal(true)
      for (const refused of [{ name: 'x' }, { id: '1', name: 'x' }, { id: 1.5, name: 'x' }, { id: 1 }, { id: 1, name: 'x', tag: null }]) {
        expect(newPlant(refused), JSON.stringify(refused)).to.equal(false)
      }
    })

    it('NewPlant refuses a name or tag with a lone surrogate, as the service does, and takes every other string', function () {
      fc.assert(
        fc.property(fc.string({ unit: 'binary' }), fc.boolean(), (text, asTag) => {
          const body = asTag ? { id: 1, name: 'x', tag: text } : { id: 1, name: text }
          expect(newPlant(body), JSON.stringify(text)).to.equal(WellFormedString.is(text))
        }),
      )
      expect(newPlant({ id: 1, name: 'a\ud800b' })).to.equal(false)
      expect(newPlant({ id: 1, name: 'x', tag: '\udc00' })).to.equal(false)
      expect(newPlant({ id: 1, name: '\u{1F331}' })).to.equal(true)
    })

    it('declares id a signed 64-bit integer sent as a JSON number', function () {
      const id = document.components.schemas['NewPlant']?.properties?.['id']
      expect(id).to.include({ type: 'integer', format: 'int64' })
    })

    it('Plant is exactly a name and an optional tag: no id, nothing else', function () {
      expect(plant({ name: 'x' })).to.equal(true)
      expect(plant({ name: 'x', tag: 'y' })).to.equal(true)
      expect(plant({ id: 1, name: 'x' })).to.equal(false)
      expect(plant({ tag: 'y' })).to.equal(false)
    })
  })

  describe('security', function () {
    it('asks every operation for a bearer token by default, and leaves the document and the probes open', function () {
      expect(document.components.securitySchemes?.['bearerAuth']).to.include({ type: 'http', scheme: 'bearer' })
      expect(document.security).to.deep.equal([{ bearerAuth: [] }])
      expect(document.paths['/plants']?.post?.security).to.equal(undefined)
      for (const path of ['/openapi.json', '/healthz', '/readyz']) {
        expect(document.paths[path]?.get?.security, path).to.deep.equal([])
      }
    })
  })

  describe('under a base path', function () {
    it('puts the operation under the base path and keeps the service endpoints at the root', function () {
      const mounted = openApiDocument('/api/v1', { bodyLimitBytes: TEST_BODY_LIMIT_BYTES })
      expect(Object.keys(mounted.paths)).to.have.members(['/api/v1/plants', '/openapi.json', '/docs', '/healthz', '/readyz'])
      expect(mounted.servers).to.deep.equal([{ url: '.', description: document.servers?.[0]?.description }])
    })

    // OpenAPI resolves a relative server URL against the URL the document was fetched from; the
    // app serves it at its own root, wherever that root is mounted.
    it('gives, joined to each path key, the URL the app answers wherever it is mounted', function () {
      const mounted = openApiDocument('/api/v1', { bodyLimitBytes: TEST_BODY_LIMIT_BYTES })
      for (const root of ['http://shop.example/', 'http://shop.example/shop/', 'http://shop.example/a/b/']) {
        const server = new URL(mounted.servers?.[0]?.url ?? '', new URL('openapi.json', root)).href.replace(/\/$/, '')
        for (const path of Object.keys(mounted.paths)) expect(`${server}${path}`, root).to.equal(`${root.replace(/\/$/, '')}${path}`)
      }
    })

    it('ignores a trailing slash on the base path', function () {
      expect(Object.keys(openApiDocument('/api/', { bodyLimitBytes: TEST_BODY_LIMIT_BYTES }).paths)).to.include('/api/plants')
    })
  })
})

describe('the traffic check of the tests', function () {
  const check = makeTrafficChecker(openApiDocument('', { bodyLimitBytes: TEST_BODY_LIMIT_BYTES }))
  const exchange = (overrides: Partial<Exchange> & { headers?: Record<string, string> }): Exchange => {
    const headers = new Map(
      Object.entries({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-1', ...overrides.headers }),
    )
    return {
      method: 'POST',
      path: '/plants',
      status: 200,
      body: '{"name":"x"}',
      ...overrides,
      header: (name) => headers.get(name.toLowerCase()) ?? null,
    }
  }

  it('passes an answer the document describes', function () {
    expect(check(exchange({})).problems).to.deep.equal([])
    expect(check(exchange({ method: 'GET', status: 405, headers: { allow: 'POST' }, body: '{"error":405,"message":"m"}' })).problems).to.deep.equal([])
  })

  it('fails an answer without its X-Request-Id, or with one that is not well-formed', function () {
    expect(check(exchange({ headers: { 'x-request-id': '' } })).problems.join()).to.match(/X-Request-Id/)
    expect(check(exchange({ headers: { 'x-request-id': 'a b' } })).problems.join()).to.match(/X-Request-Id/)
  })

  it('fails a status the document does not list for the path and method', function () {
    expect(check(exchange({ status: 418, body: '{"error":418,"message":"m"}' })).problems.join()).to.include('lists no 418')
    expect(check(exchange({ path: '/nowhere', status: 405, body: '{"error":405,"message":"m"}' })).problems.join()).to.include('lists no 405')
  })

  it('fails a missing required header, and a header the schema refuses', function () {
    expect(check(exchange({ status: 401, body: '{"error":401,"message":"m"}' })).problems.join()).to.include('WWW-Authenticate is missing')
    expect(check(exchange({ method: 'PUT', status: 405, headers: { allow: 'GET' }, body: '{"error":405,"message":"m"}' })).problems.join()).to.include('header Allow')
  })

  it('fails a body that does not match, and a media type not documented', function () {
    expect(check(exchange({ body: '{"name":"x","id":1}' })).problems.join()).to.include('does not match')
    expect(check(exchange({ status: 409, body: '{"error":409,"message":"m","stack":"at"}' })).problems.join()).to.include('does not match')
    expect(check(exchange({ headers: { 'content-type': 'text/plain' } })).problems.join()).to.include('Content-Type')
  })

  it('fails a body where the document describes none', function () {
    const loose = makeTrafficChecker({
      ...openApiDocument('', { bodyLimitBytes: TEST_BODY_LIMIT_BYTES }),
      'x-unknown-path-responses': { '404': { description: 'nothing' } },
    })
    expect(loose(exchange({ path: '/nowhere', status: 404, body: '{"error":404,"message":"m"}' })).problems.join()).to.include('no body')
  })
})
