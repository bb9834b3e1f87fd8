// The OpenAPI 3.1 description of the service, served at GET /openapi.json. It states the spec's
// shapes and security plus every status of the behaviour contract (shared/CONTRACT.md), so a
// client generated from it knows every answer it can get.

/** A reference to a reusable object under `components`. */
export interface Reference {
  readonly $ref: string
}

/** The subset of JSON Schema (2020-12, the OpenAPI 3.1 dialect) this document uses. */
export interface SchemaObject {
  readonly type?: 'object' | 'string' | 'integer'
  readonly format?: string
  readonly description?: string
  readonly required?: ReadonlyArray<string>
  readonly properties?: Readonly<Record<string, SchemaObject>>
  readonly additionalProperties?: boolean
  readonly enum?: ReadonlyArray<string>
  readonly examples?: ReadonlyArray<unknown>
}

export interface HeaderObject {
  readonly description: string
  readonly required?: boolean
  readonly schema: SchemaObject
}

export interface MediaTypeObject {
  readonly schema: SchemaObject | Reference
  readonly example?: unknown
}

export interface ResponseObject {
  readonly description: string
  readonly headers?: Readonly<Record<string, HeaderObject>>
  readonly content?: Readonly<Record<string, MediaTypeObject>>
}

/** Who may call: each entry names a scheme of `components.securitySchemes`; `[]` means anyone. */
export type SecurityRequirements = ReadonlyArray<Readonly<Record<string, ReadonlyArray<string>>>>

export interface OperationObject {
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly tags?: ReadonlyArray<string>
  readonly security?: SecurityRequirements
  readonly requestBody?: {
    readonly description?: string
    readonly required: boolean
    readonly content: Readonly<Record<string, MediaTypeObject>>
  }
  readonly responses: Readonly<Record<string, ResponseObject | Reference>>
}

export interface PathItemObject {
  readonly summary?: string
  readonly description?: string
  readonly get?: OperationObject
  readonly post?: OperationObject
}

/** An OpenAPI 3.1 document, restricted to the parts this service describes. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0'
  readonly info: {
    readonly title: string
    readonly version: string
    readonly summary?: string
    readonly description?: string
    readonly license: { readonly name: string; readonly identifier: string }
  }
  readonly servers: ReadonlyArray<{ readonly url: string; readonly description?: string }>
  readonly security: SecurityRequirements
  readonly tags?: ReadonlyArray<{ readonly name: string; readonly description: string }>
  readonly paths: Readonly<Record<string, PathItemObject>>
  readonly components: {
    readonly schemas: Readonly<Record<string, SchemaObject>>
    readonly responses: Readonly<Record<string, ResponseObject>>
    readonly securitySchemes: Readonly<
      Record<string, { readonly type: 'http'; readonly scheme: string; readonly description?: string }>
    >
  }
}

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
export const openApiDocument = (basePath: string): OpenApiDocument => {
  const prefix = basePath.replace(/\/+$/, '')
  return {
    openapi: '3.1.0',
    info: {
      title: 'Plant Store',
      version: '1.0.0',
      summary: 'A plant store interface with one operation, which creates a plant.',
      description: [
        'Every request to the operation carries a bearer token (`Authorization: Bearer <ACCESS_TOKEN>`).',
        'Authentication is checked before the body is read, so 401 wins over 400, 413 and 415.',
        '',
        'Creating a plant is idempotent: sending the same `id` again with the same `name` and `tag`',
        'answers 200 with the stored plant and changes nothing, so a request whose answer was lost',
        'can be retried safely. The same `id` with another `name` or `tag` answers 409.',
        '',
        'Every error, whatever its status, is an `application/json` Error document',
        '`{"error": <the HTTP status>, "message": <what to fix>}`. An unknown path answers 404;',
        'another method on a known path answers 405 with `Allow` naming the methods it serves.',
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
      [`${prefix}/plants`]: {
        summary: 'The plants collection',
        description:
          'Only POST is served here. Any other method answers 405 with `Allow: POST` and an Error ' +
          'document (the response `MethodNotAllowed` under components.responses).',
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
            '400': { $ref: '#/components/responses/BadRequest' },
            '401': { $ref: '#/components/responses/Unauthorized' },
            '403': { $ref: '#/components/responses/Forbidden' },
            '409': { $ref: '#/components/responses/Conflict' },
            '413': { $ref: '#/components/responses/PayloadTooLarge' },
            '415': { $ref: '#/components/responses/UnsupportedMediaType' },
            '500': { $ref: '#/components/responses/InternalError' },
            '503': { $ref: '#/components/responses/ServiceUnavailable' },
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This OpenAPI document',
          tags: ['service'],
          security: [],
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document of the service.',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
      '/docs': {
        get: {
          operationId: 'getApiReference',
          summary: 'This API reference, as a web page',
          tags: ['service'],
          security: [],
          responses: {
            '200': { description: 'An HTML page rendering /openapi.json.', content: { 'text/html': { schema: { type: 'string' } } } },
          },
        },
      },
      '/healthz': {
        get: {
          operationId: 'checkLiveness',
          summary: 'Liveness',
          description: 'Answers 200 while the process is alive; it does not look at storage.',
          tags: ['service'],
          security: [],
          responses: { '200': statusResponse('The process is alive.', 'alive') },
        },
      },
      '/readyz': {
        get: {
          operationId: 'checkReadiness',
          summary: 'Readiness',
          description: 'Answers 200 when storage answers, 503 when it does not.',
          tags: ['service'],
          security: [],
          responses: {
            '200': statusResponse('Storage answers: the service can take requests.', 'ready'),
            '503': { $ref: '#/components/responses/ServiceUnavailable' },
          },
        },
      },
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
            name: { type: 'string', description: 'The name of the plant.' },
            tag: { type: 'string', description: 'Tag to specify the type.' },
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
            name: { type: 'string', description: 'The name of the plant.' },
            tag: { type: 'string', description: 'Tag to specify the type.' },
          },
          additionalProperties: false,
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
      responses: {
        BadRequest: errorResponse(
          400,
          'Unexpected error: the body is not a NewPlant. It is not well-formed JSON (bytes that are ' +
            'not UTF-8 included) or not a JSON object; `id` is missing, not a JSON number, not an ' +
            'integer or outside int64; `name` is missing or not a string; `tag` is present but not ' +
            'a string (null included); or a string holds a lone surrogate. The message names the field.',
          'Invalid NewPlant: `id` must be an integer from -9223372036854775808 to 9223372036854775807.',
        ),
        Unauthorized: errorResponse(
          401,
          'No valid credential: the Authorization header is missing, uses another scheme than ' +
            'Bearer (the scheme name is case-insensitive), or carries an empty or unknown token.',
          'The access token is not recognised.',
          {
            'WWW-Authenticate': {
              description:
                'The challenge: `Bearer realm="plant-store"` when no credential was sent, ' +
                '`Bearer realm="plant-store", error="invalid_token"` when the one sent is refused.',
              required: true,
              schema: {
                type: 'string',
                examples: ['Bearer realm="plant-store"', 'Bearer realm="plant-store", error="invalid_token"'],
              },
            },
          },
        ),
        Forbidden: errorResponse(
          403,
          'The token is valid but lacks the scope this service is configured to require.',
          'The access token lacks the scope "plants:write".',
          {
            'WWW-Authenticate': {
              description:
                'The challenge `Bearer realm="plant-store", error="insufficient_scope"`, with the ' +
                'required scope in a `scope` attribute.',
              required: true,
              schema: {
                type: 'string',
                examples: ['Bearer realm="plant-store", error="insufficient_scope", scope="plants:write"'],
              },
            },
          },
        ),
        Conflict: errorResponse(
          409,
          'Another plant is already stored under this id (another name or tag). Nothing is changed.',
          'A different plant is already stored under id 10; send the same name and tag to repeat a create, or use another id.',
        ),
        PayloadTooLarge: errorResponse(
          413,
          'The body is larger than the configured limit (BODY_LIMIT, 64 KiB unless configured).',
          'The request body is larger than 65536 bytes.',
        ),
        UnsupportedMediaType: errorResponse(
          415,
          'The Content-Type is not JSON (`application/json` or `application/*+json`), names a ' +
            'charset other than UTF-8, or the Content-Encoding is not supported.',
          'Send the request body as application/json.',
        ),
        InternalError: errorResponse(
          500,
          'Something unexpected failed. The message is generic and shows no internals.',
          'Something went wrong on our side; the failure has been logged.',
        ),
        ServiceUnavailable: errorResponse(
          503,
          "Storage, or the identity provider's key set, cannot be reached or did not answer in " +
            'time. Retrying is safe: a create with the same id, name and tag is a replay.',
          'Storage is unavailable; try again shortly.',
          {
            'Retry-After': {
              description: 'Seconds to wait before retrying.',
              schema: { type: 'integer', examples: [1] },
            },
          },
        ),
        MethodNotAllowed: errorResponse(
          405,
          'The method is not served on this path; `Allow` lists the ones that are.',
          'Use POST here.',
          {
            Allow: {
              description: 'The methods the path serves: `POST` on the plants collection, `GET, HEAD` elsewhere.',
              required: true,
              schema: { type: 'string', examples: ['POST'] },
            },
          },
        ),
      },
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

// Every error status answers the same Error document; only the words and headers differ.
const errorResponse = (
  status: number,
  description: string,
  exampleMessage: string,
  headers?: Readonly<Record<string, HeaderObject>>,
): ResponseObject => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/Error' },
      example: { error: status, message: exampleMessage },
    },
  },
})

// The probes answer a one-field JSON document naming their state.
const statusResponse = (description: string, status: string): ResponseObject => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['status'],
        properties: { status: { type: 'string', enum: [status] } },
      },
      example: { status },
    },
  },
})
