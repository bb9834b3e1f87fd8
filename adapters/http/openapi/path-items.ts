// Builders of the document's path items: the probes, the served GETs and the 405 every other
// method of a path gets.
import type * as OpenApi from 'openapi3-ts/oas31'
import { toErrorResponse } from '../errors/error-response.js'
import { methodNotAllowed } from '../errors/problems.js'
import { HTTP_METHODS, type OtherMethods } from './document-shape.js'

// A string the service accepts: well-formed Unicode, any code point but a lone surrogate. Written
// as "a character that is no surrogate, or a high surrogate followed by a low one", it gives the
// same answers whether a tool compiles it with the `u` flag (as JSON Schema 2020-12 says) or
// without it (as many validators do): without the flag, a pair is matched by its second branch.
export const WELL_FORMED = '^(?:[^\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$'

// A probe answers a one-field JSON document naming its state.
export const probeResponse = (description: string, status: string): OpenApi.ResponseObject => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['status'],
        properties: { status: { type: 'string', enum: [status] } },
        additionalProperties: false,
      },
      example: { status },
    },
  },
})

// Every method a path does not serve answers 405 with `Allow` naming the ones it does. The
// header's exact value is in the schema, so a client knows it.
export const pathItem = (served: OpenApi.PathItemObject): OpenApi.PathItemObject & OtherMethods => {
  const allowed = HTTP_METHODS.filter((method) => served[method] !== undefined).map((m) => m.toUpperCase())
  const { headers, body } = toErrorResponse(methodNotAllowed(allowed))
  return {
    ...served,
    'x-other-methods-responses': {
      '405': {
        description: 'A method this path does not serve.',
        headers: {
          Allow: { description: 'The methods the path serves.', required: true, schema: { const: headers['Allow'] } },
        },
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: body },
        },
      },
    },
  }
}

// The probes, the docs page and this document: open to anyone, GET and HEAD only.
export const serviceGet = (operation: {
  readonly operationId: string
  readonly summary: string
  readonly description: string
  readonly responses: OpenApi.ResponsesObject
}): OpenApi.PathItemObject => ({
  get: { tags: ['service'], security: [], ...operation },
  head: {
    tags: ['service'],
    security: [],
    operationId: `${operation.operationId}Head`,
    summary: `${operation.summary} (headers only)`,
    description: 'The GET answer without its body (RFC 9110 section 9.3.2).',
    responses: withoutBodies(operation.responses),
  },
})

// A HEAD answer is its GET answer's status and headers; an answer by reference keeps its
// reference, whose body a client of HEAD does not receive.
const withoutBodies = (responses: OpenApi.ResponsesObject): OpenApi.ResponsesObject =>
  Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      if ('$ref' in response) return [status, response]
      const headersOnly: OpenApi.ResponseObject = { ...response }
      delete headersOnly.content
      return [status, headersOnly]
    }),
  )
