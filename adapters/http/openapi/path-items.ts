// Builders of the document's path items: the probes, the served GETs and the 405 every other
// method of a path gets.
import type * as OpenApi from 'openapi3-ts/oas31'
import { toErrorResponse } from '../errors/error-response.js'
import { methodNotAllowed } from '../errors/problems.js'
import { HTTP_METHODS, type OtherMethods } from './document-shape.js'
import { errors } from './error-answers.js'

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
// header's exact value is in the schema, so a client knows it. A CORS preflight (`options`) is
// the browser's question about the other methods, not a method the path serves.
export const pathItem = (served: OpenApi.PathItemObject): OpenApi.PathItemObject & OtherMethods => {
  const allowed = HTTP_METHODS.filter((method) => method !== 'options' && served[method] !== undefined).map((m) => m.toUpperCase())
  return {
    ...served,
    // A method no server implements (`BREW`) is refused by Node's parser before any path is served.
    'x-other-methods-responses': { '405': methodNotAllowedResponse(allowed, 'A method this path does not serve.'), ...errors('NotImplemented') },
  }
}

const methodNotAllowedResponse = (allowed: ReadonlyArray<string>, description: string): OpenApi.ResponseObject => {
  const { headers, body } = toErrorResponse(methodNotAllowed(allowed))
  return {
    description,
    headers: {
      Allow: { description: 'The methods the path serves.', required: true, schema: { const: headers['Allow'] } },
    },
    content: {
      'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: body },
    },
  }
}

// The CORS preflight of a path whose methods a page of an allowed origin may call: answered
// before authentication, as browsers send it without credentials.
export const preflight = (allowed: ReadonlyArray<string>): OpenApi.OperationObject => ({
  operationId: 'preflightCreatePlant',
  summary: 'CORS preflight',
  description:
    'Asked by a browser before a call from a page of another origin. From an origin the service ' +
    'allows, with `Access-Control-Request-Method`: 204 with the CORS headers. Otherwise 405, as ' +
    'for any method the path does not serve, and the browser refuses the call.',
  tags: ['service'],
  security: [],
  responses: {
    '204': {
      description: 'The page may make the call.',
      headers: {
        'Access-Control-Allow-Origin': { description: "The page's origin.", required: true, schema: { type: 'string' } },
        'Access-Control-Allow-Methods': { description: 'The methods a page may use.', required: true, schema: { type: 'string' } },
        'Access-Control-Allow-Headers': { description: 'The request headers a page may send.', required: true, schema: { type: 'string' } },
        'Access-Control-Max-Age': { description: 'How long, in seconds, a browser may keep this answer.', required: true, schema: { type: 'string' } },
      },
    },
    '405': methodNotAllowedResponse(allowed, 'Not a preflight from an allowed origin.'),
  },
})

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
