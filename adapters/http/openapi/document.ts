// The OpenAPI 3.1 description of the service, served at GET /openapi.json: the spec's shapes and
// security plus every answer the service gives (shared/CONTRACT.md). The words are written here;
// the Error examples and their headers come from the error mapper, so they cannot drift from it.
// The tests send real requests and check every answer against this document.
import * as E from 'fp-ts/lib/Either.js'
import type * as OpenApi from 'openapi3-ts/oas31'
import {
  authenticationUnavailable,
  decodeNewPlant,
  insufficientScope,
  plantConflict,
  storageFull,
  storageUnavailable,
  type PlantId,
} from '../../../core/index.js'
import { bearerTokenFrom } from '../request/bearer-credentials.js'
import { REQUEST_ID_PATTERN } from '../request/request-id.js'
import { toErrorResponse, type Problem } from '../errors/error-response.js'
import { parseExactJson } from '../body/exact-json.js'
import {
  expectationFailed,
  headersTooLarge,
  malformedBody,
  malformedRequest,
  methodNotAllowed,
  methodNotImplemented,
  payloadTooLarge,
  requestTimeout,
  routeNotFound,
  shuttingDown,
  unexpectedFailure,
  unsupportedMediaType,
} from '../errors/problems.js'

/** The methods an OpenAPI path item can describe. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/**
 * Answers no operation owns, in extensions (a 405 or a 404 has no operation of its own; describing
 * one as an operation would give generated clients methods that can only fail):
 * - `x-other-methods-responses` on each path item: what a method the path does not serve gets (405);
 * - `x-unknown-path-responses` on the document: what a request to a path `paths` does not list
 *   gets (404), or a request Node's HTTP parser refused before any path was read.
 */
export interface PlantStoreExtensions {
  readonly 'x-unknown-path-responses': OpenApi.ResponsesObject
}

/** The extension of each path item, beside its operations. */
export interface OtherMethods {
  readonly 'x-other-methods-responses': OpenApi.ResponsesObject
}

/** The OpenAPI 3.1 document of the service, with the extensions above. */
export type OpenApiDocument = OpenApi.OpenAPIObject &
  PlantStoreExtensions & {
    readonly paths: OpenApi.PathsObject
    readonly components: OpenApi.ComponentsObject & {
      readonly schemas: Readonly<Record<string, OpenApi.SchemaObject>>
      readonly responses: Readonly<Record<string, OpenApi.ResponseObject>>
    }
  }

// A problem as the code that reports it makes it, so the examples show what clients really get.
const refusal = <P>(result: E.Either<P, unknown>): P => {
  if (E.isRight(result)) throw new TypeError('openApiDocument: an example refusal was accepted')
  return result.left
}

// Each Error answer of the service, by the name it has under components.responses: the problems
// the mapper turns into it (the status, the example messages and the headers' examples come from
// the mapper), what it means, and what each header it carries says. A new Error answer is a row
// here, then its name in the operations (or extensions) that can give it.
const ERROR_ANSWERS = {
  BadRequest: {
    problems: [
      refusal(decodeNewPlant({ name: 1, tag: false })),
      malformedBody(refusal(parseExactJson(new TextEncoder().encode('{"id":1,"name":"x"')))),
      malformedRequest,
    ],
    description:
      'The body is not a NewPlant: not well-formed JSON (bytes that are not UTF-8 included) or not a ' +
      'JSON object; `id` missing, not a JSON number, not an integer or outside int64; `name` missing ' +
      'or not a string; `tag` present but not a string (null included); or a string with a lone ' +
      'surrogate; or the request is not well-formed HTTP/1.1. The message names every wrong field.',
  },
  Unauthorized: {
    problems: [refusal(bearerTokenFrom(undefined)), refusal(bearerTokenFrom('Basic dXNlcjpwYXNz'))],
    description:
      'No valid credential: the Authorization header is missing, uses another scheme than Bearer ' +
      '(the scheme name is case-insensitive), or carries an empty, unknown, expired or foreign token.',
    headers: {
      'WWW-Authenticate': 'The challenge; `error="invalid_token"` when a credential was sent and refused.',
    },
  },
  Forbidden: {
    problems: [insufficientScope('plants:write')],
    description: 'The token is valid but lacks the scope this service is configured to require.',
    headers: { 'WWW-Authenticate': 'The challenge, naming the required scope.' },
  },
  Conflict: {
    problems: [plantConflict(10n as PlantId)],
    description: 'Another plant is already stored under this id (another name or tag). Nothing is changed.',
  },
  PayloadTooLarge: {
    problems: [payloadTooLarge(65536)],
    description: 'The body is larger than the configured limit (BODY_LIMIT, 64 KiB unless configured).',
  },
  UnsupportedMediaType: {
    problems: [unsupportedMediaType('Send the request body as application/json.')],
    description:
      'The Content-Type is not JSON (`application/json` or `application/*+json`), names a charset ' +
      'other than UTF-8, or the Content-Encoding is none of gzip, deflate, br and identity (named in any case).',
  },
  InternalError: {
    problems: [unexpectedFailure(new Error('a defect'))],
    description: 'Something unexpected failed. The message is generic and shows no internals.',
  },
  InsufficientStorage: {
    problems: [storageFull('100000 plants')],
    description:
      'The store holds as many plants as it is allowed to (in-memory storage: IN_MEMORY_MAX_PLANTS ' +
      'or IN_MEMORY_MAX_BYTES). No new plant is stored; plants already stored are kept, and sending ' +
      'one of them again is still answered 200. Retrying the same new plant will not help.',
  },
  NotReady: {
    problems: [storageUnavailable(new Error('down')), shuttingDown],
    description:
      'This instance should not get traffic now: storage does not answer, or the instance is ' +
      'shutting down (from the moment it is told to stop, while it still serves what arrives).',
    headers: { 'Retry-After': 'Seconds to wait before asking again.' },
  },
  ServiceUnavailable: {
    problems: [storageUnavailable(new Error('down')), authenticationUnavailable(new Error('down'))],
    description:
      "Storage, or the identity provider's key set, cannot be reached or did not answer in time. " +
      'Retrying is safe: a create with the same id, name and tag is a replay.',
    headers: { 'Retry-After': 'Seconds to wait before retrying.' },
  },
  NotWellFormed: {
    problems: [malformedRequest],
    description: 'The request is not well-formed HTTP/1.1 (such as a request line Node cannot read, or no Host header).',
  },
  RequestTimeout: {
    problems: [requestTimeout],
    description: 'The request did not arrive in time. The connection is closed.',
  },
  ExpectationFailed: {
    problems: [expectationFailed],
    description: 'The request has an `Expect` header other than `100-continue`, the only expectation this service meets.',
  },
  HeadersTooLarge: {
    problems: [headersTooLarge],
    description: 'The request headers are larger than the server reads. The connection is closed.',
  },
} satisfies Record<string, ErrorAnswer>

// A CONNECT names an authority, not a path: its answer stands beside unknown paths, written out
// there (a component referred to from an extension only counts as unused to the linters).
const CONNECT_REFUSED: ErrorAnswer = {
  problems: [methodNotImplemented],
  description: 'A CONNECT request: this service is not a proxy. The connection is closed.',
}

interface ErrorAnswer {
  readonly problems: readonly [Problem, ...Problem[]]
  readonly description: string
  readonly headers?: Readonly<Record<string, string>>
}

type ErrorAnswerName = keyof typeof ERROR_ANSWERS

/** `{ [status]: $ref }` for each named Error answer, each under the status the mapper gives it. */
const errors = (...names: ReadonlyArray<ErrorAnswerName>): OpenApi.ResponsesObject => {
  const entries = names.map((name) => [statusOf(name), { $ref: `#/components/responses/${name}` }] as const)
  if (new Set(entries.map(([status]) => status)).size < entries.length) {
    throw new TypeError(`openApiDocument: two answers under one status among ${names.join(', ')}`)
  }
  return Object.fromEntries(entries)
}

const statusOf = (name: ErrorAnswerName): string => String(toErrorResponse(ERROR_ANSWERS[name].problems[0]).status)

// What any request may get from Node's HTTP parser or the Host check, whatever its operation.
const TRANSPORT: ReadonlyArray<ErrorAnswerName> = ['NotWellFormed', 'RequestTimeout', 'ExpectationFailed', 'HeadersTooLarge']
const transportErrorsBeside = (...names: ReadonlyArray<ErrorAnswerName>): OpenApi.ResponsesObject => {
  const taken = new Set(names.map(statusOf))
  return errors(...names, ...TRANSPORT.filter((name) => !taken.has(statusOf(name))))
}

// Every Error answer is the same document; the words, the examples and the headers differ.
const errorResponse = ({ problems, description, headers = {} }: ErrorAnswer): OpenApi.ResponseObject => {
  const answers = problems.map((problem) => ({ tag: problem._tag, ...toErrorResponse(problem) }))
  return {
    description,
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, says]) => [
        name,
        {
          description: says,
          required: true,
          schema: headerSchema([...new Set(answers.map((answer) => answer.headers[name] ?? ''))]),
        },
      ]),
    ),
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/Error' },
        examples: Object.fromEntries(answers.map(({ tag, body }) => [tag, { value: body }])),
      },
    },
  }
}

// A header whose values are all whole numbers (Retry-After) is an integer to OpenAPI's simple style.
const headerSchema = (values: ReadonlyArray<string>): OpenApi.SchemaObject =>
  values.every((value) => /^\d+$/.test(value))
    ? { type: 'integer', examples: values.map(Number) }
    : { type: 'string', examples: [...values] }

// A string the service accepts: well-formed Unicode. With the `u` flag that OpenAPI 3.1's JSON
// Schema gives patterns, a surrogate pair is one code point and only a lone surrogate matches the
// class, so schema-driven tools refuse what the service refuses.
const WELL_FORMED = '^[^\\uD800-\\uDFFF]*$'

// A probe answers a one-field JSON document naming its state.
const probeResponse = (description: string, status: string): OpenApi.ResponseObject => ({
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

// Every method a path does not serve answers 405 with `Allow` naming the ones it does (HEAD is
// served wherever GET is). The header's exact value is in the schema, so a client knows it.
const pathItem = (served: OpenApi.PathItemObject): OpenApi.PathItemObject & OtherMethods => {
  const methods = HTTP_METHODS.filter((method) => served[method] !== undefined).map((m) => m.toUpperCase())
  const allowed = methods.includes('GET') ? [...methods, 'HEAD'] : methods
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

// The probes and this document: open to anyone, GET (and so HEAD) only.
const serviceGet = (operation: {
  readonly operationId: string
  readonly summary: string
  readonly description: string
  readonly responses: OpenApi.ResponsesObject
}): OpenApi.PathItemObject => ({
  get: { tags: ['service'], security: [], ...operation },
})

/**
 * The OpenAPI 3.1 document of the service mounted under `basePath` (the BASE_PATH setting: empty,
 * or a path such as `/api`).
 *
 * The base path goes into the path keys, not into `servers`: a generator joins the server URL and
 * the path key, and only the operation lives under BASE_PATH while /openapi.json, /healthz and
 * /readyz stay at the root. A server URL of `${basePath}` would send those three to
 * `${basePath}/healthz`; the root server `/` (resolved against wherever this document was fetched)
 * plus full path keys gives every generator the URLs the service answers.
 */
export const openApiDocument = (basePath: string): OpenApiDocument => withRequestIds(describeService(basePath))

const describeService = (basePath: string): OpenApiDocument => {
  const plants = `${basePath.replace(/\/+$/, '')}/plants`
  return {
    openapi: '3.1.0',
    info: {
      title: 'Plant Store',
      version: '1.0.0',
      description: [
        'A plant store interface with one operation, which creates a plant.',
        '',
        'Every request to the operation carries a bearer token (`Authorization: Bearer <ACCESS_TOKEN>`).',
        'Authentication is checked before the body is read, so 401 wins over 400, 413 and 415.',
        '',
        'Creating a plant is idempotent: sending the same `id` again with the same `name` and `tag`',
        'answers 200 with the stored plant and changes nothing, so a request whose answer was lost',
        'can be retried safely. The same `id` with another `name` or `tag` answers 409.',
        '',
        'Every error, whatever its status, is an `application/json` Error document',
        '`{"error": <the HTTP status>, "message": <what to fix>}`. A method a path does not serve',
        'answers 405 with `Allow` (each path item\'s `x-other-methods-responses`); a path not listed',
        'here answers 404 (`x-unknown-path-responses`).',
      ].join('\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This service; path keys already include its base path.' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'plants', description: 'Plants of the store.' },
      { name: 'service', description: 'Operating the service: its description, liveness and readiness.' },
    ],
    paths: {
      [plants]: pathItem({
        post: {
          operationId: 'createPlant',
          summary: 'Creates a new plant in the store',
          description:
            'Stores the plant and answers it without its id. Sending a plant that is already stored ' +
            'under this id, with the same name and tag, is a replay: it answers 200 with the stored ' +
            'plant and nothing changes.',
          tags: ['plants'],
          requestBody: {
            description: 'The plant to create. Fields that NewPlant does not declare are ignored.',
            required: true,
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/NewPlant' },
                example: { id: 10, name: 'Monstera deliciosa', tag: 'houseplant' },
              },
            },
          },
          responses: {
            '200': {
              description:
                'Plant response: the plant as created, or as already stored when the request ' +
                'repeats an earlier one (same id, name and tag).',
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/Plant' },
                  example: { name: 'Monstera deliciosa', tag: 'houseplant' },
                },
              },
            },
            ...transportErrorsBeside(
              'BadRequest',
              'Unauthorized',
              'Forbidden',
              'Conflict',
              'PayloadTooLarge',
              'UnsupportedMediaType',
              'InternalError',
              'ServiceUnavailable',
              'InsufficientStorage',
            ),
          },
        },
      }),
      '/openapi.json': pathItem(
        serviceGet({
          operationId: 'getOpenApiDocument',
          summary: 'This OpenAPI document',
          description: 'The OpenAPI 3.1 document of the service, for the base path it runs under.',
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document of the service.',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['openapi', 'paths'],
                    properties: { openapi: { type: 'string', pattern: '^3\\.1\\.' }, paths: { type: 'object' } },
                  },
                },
              },
            },
            ...transportErrorsBeside(),
          },
        }),
      ),
      '/docs': pathItem(
        serviceGet({
          operationId: 'getApiReference',
          summary: 'This API reference, as a web page',
          description: 'An HTML page that renders /openapi.json, with every asset served by the service itself.',
          responses: {
            '200': {
              description: 'The API reference page.',
              content: { 'text/html': { schema: { type: 'string' } } },
            },
            ...transportErrorsBeside(),
          },
        }),
      ),
      '/healthz': pathItem(
        serviceGet({
          operationId: 'checkLiveness',
          summary: 'Liveness',
          description: 'Answers 200 while the process is alive; it does not look at storage.',
          responses: { '200': probeResponse('The process is alive.', 'alive'), ...transportErrorsBeside() },
        }),
      ),
      '/readyz': pathItem(
        serviceGet({
          operationId: 'checkReadiness',
          summary: 'Readiness',
          description: 'Answers 200 when storage answers, 503 when it does not or when the instance is shutting down.',
          responses: {
            '200': probeResponse('Storage answers: the service can take requests.', 'ready'),
            ...transportErrorsBeside('NotReady'),
          },
        }),
      ),
    },
    'x-unknown-path-responses': {
      '404': {
        description:
          'There is nothing at this path. Paths match exactly: another case or a trailing slash is another path.',
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/Error' },
            example: toErrorResponse(routeNotFound).body,
          },
        },
      },
      [String(toErrorResponse(methodNotImplemented).status)]: errorResponse(CONNECT_REFUSED),
      ...transportErrorsBeside(),
    },
    components: {
      schemas: {
        NewPlant: {
          type: 'object',
          description: 'The request shape: every field of Plant, plus the id.',
          required: ['id', 'name'],
          properties: {
            id: {
              type: 'integer',
              format: 'int64',
              description:
                'Identification number of the plant: a signed 64-bit integer, from ' +
                '-9223372036854775808 to 9223372036854775807, sent as a JSON number (not a string). ' +
                'It is kept exactly, beyond 2^53 too: 9007199254740993 and 9007199254740992 are two ' +
                'plants. A number is an integer when its exact value is one (1.0 is, 1.5 is not). ' +
                'Clients whose JSON numbers are doubles (JavaScript) must write it without rounding.',
              examples: [10],
            },
            name: { $ref: '#/components/schemas/Name' },
            tag: { $ref: '#/components/schemas/Tag' },
          },
        },
        Plant: {
          type: 'object',
          // The contract promises exactly these fields, so a strict client may rely on it.
          description:
            'The response shape: a plant as the store shows it, without its id. Strings are ' +
            'returned exactly as they were sent.',
          required: ['name'],
          properties: {
            name: { $ref: '#/components/schemas/Name' },
            tag: { $ref: '#/components/schemas/Tag' },
          },
          additionalProperties: false,
        },
        Name: {
          type: 'string',
          description: 'The name of the plant: any well-formed Unicode (no lone surrogate).',
          pattern: WELL_FORMED,
        },
        Tag: {
          type: 'string',
          description: 'Tag to specify the type: any well-formed Unicode (no lone surrogate).',
          pattern: WELL_FORMED,
        },
        Error: {
          type: 'object',
          description: 'What went wrong. Every error status answers this document.',
          required: ['error', 'message'],
          properties: {
            error: {
              type: 'integer',
              format: 'int32',
              description: 'Numeric error indicator: the HTTP status code of the answer.',
            },
            message: { type: 'string', description: 'Error message text: what to fix, for a person.' },
          },
          additionalProperties: false,
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_ANSWERS).map(([name, answer]) => [name, errorResponse(answer)]),
      ),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Send `Authorization: Bearer <ACCESS_TOKEN>`.',
        },
      },
    },
  }
}

// Every answer carries X-Request-Id, whatever its status or path: stated once, here, for every
// response the document describes (a `$ref` response gets it where it is defined).
const REQUEST_ID_HEADER: OpenApi.HeaderObject = {
  description:
    'The id of this request, on every answer: the `X-Request-Id` the client sent when it is 1 to 128 ' +
    'characters of `A-Z a-z 0-9 - . _ ~ : / + = @`, a new one otherwise. Every log line the request causes carries it.',
  required: true,
  schema: { type: 'string', pattern: REQUEST_ID_PATTERN },
}

const withRequestId = (responses: OpenApi.ResponsesObject | undefined): OpenApi.ResponsesObject =>
  Object.fromEntries(
    Object.entries(responses ?? {}).map(([status, response]) => [
      status,
      '$ref' in response ? response : { ...response, headers: { ...response.headers, 'X-Request-Id': REQUEST_ID_HEADER } },
    ]),
  )

const withRequestIds = (document: OpenApiDocument): OpenApiDocument => ({
  ...document,
  paths: Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      {
        ...item,
        ...Object.fromEntries(
          HTTP_METHODS.flatMap((method) => {
            const operation = item[method]
            return operation === undefined ? [] : [[method, { ...operation, responses: withRequestId(operation.responses) }]]
          }),
        ),
        'x-other-methods-responses': withRequestId(item['x-other-methods-responses']),
      },
    ]),
  ),
  'x-unknown-path-responses': withRequestId(document['x-unknown-path-responses']),
  components: {
    ...document.components,
    responses: withRequestId(document.components.responses as OpenApi.ResponsesObject),
  },
})
