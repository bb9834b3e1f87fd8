import { Validator } from '@seriousme/openapi-schema-validator'
import { expect } from 'chai'
import {
  openApiDocument,
  type OpenApiDocument,
  type OperationObject,
  type Reference,
  type ResponseObject,
} from '../../../adapters/http/openapi-document.js'

// Every status the contract gives POST {base_url}/plants.
const CREATE_PLANT_STATUSES = ['200', '400', '401', '403', '409', '413', '415', '500', '503']
const ERROR_SCHEMA = '#/components/schemas/Error'

const createPlantOf = (document: OpenApiDocument, basePath = ''): OperationObject => {
  const operation = document.paths[`${basePath}/plants`]?.post
  if (operation === undefined) expect.fail(`no POST ${basePath}/plants in the document`)
  return operation
}

// Follows a `#/components/responses/X` reference, the only kind this document uses for responses.
const resolveResponse = (document: OpenApiDocument, response: ResponseObject | Reference): ResponseObject => {
  if (!('$ref' in response)) return response
  const name = response.$ref.replace('#/components/responses/', '')
  const resolved = document.components.responses[name]
  if (resolved === undefined) expect.fail(`dangling reference ${response.$ref}`)
  return resolved
}

describe('the OpenAPI document', () => {
  const document = openApiDocument('')

  describe('as a whole', () => {
    it('is a valid OpenAPI 3.1 document by the official JSON schema', async () => {
      const validator = new Validator()
      // structuredClone: the validator may annotate what it is given.
      const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>)
      expect(result.errors, JSON.stringify(result.errors, null, 2)).to.equal(undefined)
      expect(result.valid).to.equal(true)
      expect(validator.version).to.equal('3.1')
    })

    it('is checked by a validator that does refuse a broken document (dangling reference)', async () => {
      const broken = structuredClone(document) as unknown as {
        paths: Record<string, { post: { responses: Record<string, unknown> } }>
      }
      const createPlant = broken.paths['/plants']?.post ?? expect.fail('no POST /plants')
      createPlant.responses['409'] = { $ref: '#/components/responses/Missing' }
      const result = await new Validator().validate(broken as unknown as Record<string, unknown>)
      expect(result.valid).to.equal(false)
      expect(JSON.stringify(result.errors)).to.include('#/components/responses/Missing')
    })

    it('survives JSON: what /openapi.json serves is the same document', () => {
      expect(JSON.parse(JSON.stringify(document))).to.deep.equal(document)
    })

    it('names the service, its version and its MIT licence', () => {
      expect(document.info.title).to.equal('Plant Store')
      expect(document.info.version).to.equal('1.0.0')
      expect(document.info.license).to.deep.equal({ name: 'MIT', identifier: 'MIT' })
    })
  })

  describe('security', () => {
    it('declares bearerAuth as an HTTP bearer scheme and applies it to every operation by default', () => {
      expect(document.components.securitySchemes['bearerAuth']).to.include({ type: 'http', scheme: 'bearer' })
      expect(document.security).to.deep.equal([{ bearerAuth: [] }])
      expect(createPlantOf(document).security, 'createPlant keeps the global requirement').to.equal(undefined)
    })

    it('leaves /openapi.json, /healthz and /readyz open', () => {
      for (const path of ['/openapi.json', '/healthz', '/readyz']) {
        expect(document.paths[path]?.get?.security, path).to.deep.equal([])
      }
    })
  })

  describe('schemas', () => {
    const { NewPlant, Plant, Error } = document.components.schemas

    it('NewPlant requires an int64 id and a string name, and has an optional string tag', () => {
      expect(NewPlant?.type).to.equal('object')
      expect(NewPlant?.required).to.have.members(['id', 'name'])
      expect(NewPlant?.properties?.['id']).to.include({ type: 'integer', format: 'int64' })
      expect(NewPlant?.properties?.['name']).to.include({ type: 'string' })
      expect(NewPlant?.properties?.['tag']).to.include({ type: 'string' })
    })

    it('says that id is sent as a JSON number and kept exact beyond 2^53', () => {
      const description = NewPlant?.properties?.['id']?.description ?? ''
      expect(description).to.match(/JSON number/)
      expect(description).to.match(/2\^53/)
      expect(description).to.include('9223372036854775807')
    })

    it('Plant requires a name, has an optional tag, and no id', () => {
      expect(Plant?.required).to.have.members(['name'])
      expect(Plant?.properties?.['name']).to.include({ type: 'string' })
      expect(Plant?.properties?.['tag']).to.include({ type: 'string' })
      expect(Plant?.properties).not.to.have.property('id')
    })

    it('Error requires an int32 error and a string message', () => {
      expect(Error?.required).to.have.members(['error', 'message'])
      expect(Error?.properties?.['error']).to.include({ type: 'integer', format: 'int32' })
      expect(Error?.properties?.['message']).to.include({ type: 'string' })
    })
  })

  describe('POST /plants', () => {
    const createPlant = createPlantOf(document)

    it('lists every status of the contract', () => {
      expect(Object.keys(createPlant.responses)).to.have.members(CREATE_PLANT_STATUSES)
    })

    it('takes a required NewPlant as JSON and answers 200 with a Plant', () => {
      expect(createPlant.requestBody?.required).to.equal(true)
      expect(createPlant.requestBody?.content['application/json']?.schema).to.deep.equal({
        $ref: '#/components/schemas/NewPlant',
      })
      const ok = resolveResponse(document, createPlant.responses['200'] ?? expect.fail('no 200'))
      expect(ok.content?.['application/json']?.schema).to.deep.equal({ $ref: '#/components/schemas/Plant' })
      expect(ok.description).to.match(/same id, name and tag/)
    })

    it('answers every error status with the Error schema, its example carrying that status', () => {
      for (const status of CREATE_PLANT_STATUSES.filter((s) => s !== '200')) {
        const response = resolveResponse(document, createPlant.responses[status] ?? expect.fail(status))
        const json = response.content?.['application/json']
        expect(json?.schema, status).to.deep.equal({ $ref: ERROR_SCHEMA })
        expect(json?.example, status).to.have.property('error', Number(status))
      }
    })

    it('describes the WWW-Authenticate challenge of 401 and of 403 (insufficient_scope)', () => {
      const unauthorized = resolveResponse(document, createPlant.responses['401'] ?? expect.fail('no 401'))
      const forbidden = resolveResponse(document, createPlant.responses['403'] ?? expect.fail('no 403'))
      expect(unauthorized.headers?.['WWW-Authenticate']?.required).to.equal(true)
      expect(unauthorized.headers?.['WWW-Authenticate']?.description).to.include('error="invalid_token"')
      expect(forbidden.headers?.['WWW-Authenticate']?.required).to.equal(true)
      expect(forbidden.headers?.['WWW-Authenticate']?.description).to.include('error="insufficient_scope"')
    })

    it('says that 409 is the same id with another name or tag', () => {
      const conflict = resolveResponse(document, createPlant.responses['409'] ?? expect.fail('no 409'))
      expect(conflict.description).to.match(/same id|this id/)
      expect(conflict.description).to.match(/another name or tag/)
    })

    it('describes 405 with Allow: POST for the other methods of the path', () => {
      expect(document.paths['/plants']?.description).to.match(/405/).and.match(/Allow: POST/)
      const methodNotAllowed = document.components.responses['MethodNotAllowed']
      expect(methodNotAllowed?.headers?.['Allow']?.required).to.equal(true)
      expect(methodNotAllowed?.content?.['application/json']?.schema).to.deep.equal({ $ref: ERROR_SCHEMA })
    })
  })

  describe('/readyz', () => {
    it('answers 200, or 503 with the Error schema', () => {
      const readiness = document.paths['/readyz']?.get ?? expect.fail('no GET /readyz')
      expect(Object.keys(readiness.responses)).to.have.members(['200', '503'])
      const unavailable = resolveResponse(document, readiness.responses['503'] ?? expect.fail('no 503'))
      expect(unavailable.content?.['application/json']?.schema).to.deep.equal({ $ref: ERROR_SCHEMA })
    })
  })

  describe('under a base path', () => {
    it('puts the operation under the base path and keeps the service endpoints at the root', () => {
      const mounted = openApiDocument('/api/v1')
      expect(Object.keys(mounted.paths)).to.have.members(['/api/v1/plants', '/openapi.json', '/docs', '/healthz', '/readyz'])
      expect(mounted.servers).to.deep.equal([document.servers[0]])
      expect(mounted.servers[0]?.url).to.equal('/')
      expect(Object.keys(createPlantOf(mounted, '/api/v1').responses)).to.have.members(CREATE_PLANT_STATUSES)
    })

    it('ignores a trailing slash on the base path', () => {
      expect(Object.keys(openApiDocument('/api/').paths)).to.include('/api/plants')
    })

    it('is still a valid OpenAPI 3.1 document', async () => {
      const result = await new Validator().validate(
        structuredClone(openApiDocument('/api')) as unknown as Record<string, unknown>,
      )
      expect(result.errors, JSON.stringify(result.errors, null, 2)).to.equal(undefined)
      expect(result.valid).to.equal(true)
    })
  })
})
