// The OpenAPI 3.1 description of the service, served at GET /openapi.json: the spec's shapes and
// security plus every answer the service gives (docs/http-api.md). The words are written here;
// the Error examples and their headers come from the error mapper, so they cannot drift from it.
// The tests send real requests and check every answer against this document.
import { toErrorResponse } from '../errors/error-response.js'
import { methodNotImplemented, routeNotFound } from '../errors/problems.js'
import type { OpenApiDocument } from './document-shape.js'
import { CONNECT_REFUSED, errorAnswersWithin, errorResponse, operationErrors, transportErrorsBeside, type DocumentedLimits } from './error-answers.js'
import { pathItem, preflight, probeResponse, serviceGet } from './path-items.js'
import { withRequestIds } from './request-ids.js'
import { EXAMPLE_ID_AS_DOUBLE } from './document-text.js'
import { CREATE_PLANT, CREATE_PLANT_ERRORS, ErrorDocumentCodec } from '../../../wire/index.js'
import { schemaOfCodec, type SchemaWords } from './codec-schemas.js'

// What /openapi.json and the /docs files answer alike (routes/fixed-representations.ts).
const STRONG_ETAG = { description: 'A strong ETag of this representation.', required: true, schema: { type: 'string' } } as const
const NOT_MODIFIED = { description: 'Not modified: the copy whose ETag the request names in If-None-Match is current.' } as const

/**
 * The OpenAPI 3.1 document of the app mounted under `basePath` (empty, or a path such as `/api`),
 * within `limits`, which its examples state. It names no setting of any program that serves it.
 *
 * The base path goes into the path keys, not into `servers`: a generator joins the server URL and
 * the path key, and only the operation lives under the base path while /openapi.json, /healthz and
 * /readyz stay at the root. A server URL of `${basePath}` would send those three to
 * `${basePath}/healthz`. The server is `.`, which OpenAPI resolves against the URL this document
 * was fetched from, /openapi.json at the app's own root: so wherever the app is mounted (under
 * koa-mount, or behind a proxy that strips a prefix), the server plus the full path keys gives
 * every generator, and the /docs page's "Try it out", the URLs the service answers there.
 *
 * @example
 * ```ts
 * import { DEFAULT_BODY_LIMIT_BYTES, openApiDocument } from 'plant-store/adapters/http'
 *
 * const document = openApiDocument('/api/v1', { bodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES })
 * console.log(Object.keys(document.paths)) // ['/api/v1/plants', '/openapi.json', '/docs', '/healthz', '/readyz']
 * ```
 */
export const openApiDocument = (basePath: string, limits: DocumentedLimits, features: DocumentedFeatures = {}): OpenApiDocument =>
  withRequestIds(describeService(basePath, limits, features))

/** What the app serves beyond the operation, when its builder turns it on. */
export interface DocumentedFeatures {
  /** CORS preflights answered on the operation's path. */
  readonly crossOrigin?: boolean
  /** The API reference page at /docs; on unless `false`. */
  readonly docsPage?: boolean
}

/**
 * The version of the HTTP interface this document describes. It moves when the contract a client
 * relies on does, not with the package's releases, which change much the interface does not show.
 */
const INTERFACE_VERSION = '1.0.0'

// The words of a plant's fields, which NewPlant and Plant share.
const PLANT_FIELDS: SchemaWords<typeof CREATE_PLANT.request.codec>['fields'] = {
  id: {
    description:
      'Identification number of the plant: a signed 64-bit integer, from ' +
      '-9223372036854775808 to 9223372036854775807, sent as a JSON number (not a string). ' +
      'It is kept exactly, beyond 2^53 too: 9007199254740993 and 9007199254740992 are two ' +
      'plants. A number is an integer when its exact value is one (1.0 is, 1.5 is not). ' +
      'Clients whose JSON numbers are doubles (JavaScript) must write it without rounding.',
    examples: [EXAMPLE_ID_AS_DOUBLE],
  },
  name: { description: 'The name of the plant: any well-formed Unicode (no lone surrogate).' },
  tag: { description: 'Tag to specify the type: any well-formed Unicode (no lone surrogate).' },
}

// The operation's method as a path item's key.
const createPlantMethod = CREATE_PLANT.method.toLowerCase() as Lowercase<typeof CREATE_PLANT.method>

const describeService = (basePath: string, limits: DocumentedLimits, { crossOrigin = false, docsPage = true }: DocumentedFeatures): OpenApiDocument => {
  const plants = `${basePath.replace(/\/+$/, '')}${CREATE_PLANT.path}`
  return {
    openapi: '3.1.0',
    info: {
      title: 'Plant Store',
      version: INTERFACE_VERSION,
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
    servers: [{ url: '.', description: 'This service, where this document was fetched from; path keys already include its base path.' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'plants', description: 'Plants of the store.' },
      { name: 'service', description: 'Operating the service: its description, liveness and readiness.' },
    ],
    paths: {
      [plants]: pathItem({
        [createPlantMethod]: {
          operationId: CREATE_PLANT.operationId,
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
                example: { id: EXAMPLE_ID_AS_DOUBLE, name: 'Monstera deliciosa', tag: 'houseplant' },
              },
              // Any JSON media type (RFC 6839's structured syntax suffix) is read as JSON.
              'application/*+json': { schema: { $ref: '#/components/schemas/NewPlant' } },
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
            ...transportErrorsBeside(...operationErrors(CREATE_PLANT_ERRORS)),
          },
        },
        ...(crossOrigin ? { options: preflight([CREATE_PLANT.method]) } : {}),
      }),
      '/openapi.json': pathItem(
        serviceGet({
          operationId: 'getOpenApiDocument',
          summary: 'This OpenAPI document',
          description:
            'The OpenAPI 3.1 document of the service, for the base path it runs under, ' +
            'compressed (br or gzip, as Accept-Encoding allows) and with a strong ETag.',
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document of the service.',
              headers: { ETag: STRONG_ETAG },
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
            '304': NOT_MODIFIED,
            ...transportErrorsBeside(),
          },
        }),
      ),
      ...(docsPage
        ? {
            '/docs': pathItem(
              serviceGet({
                operationId: 'getApiReference',
                summary: 'This API reference, as a web page',
                description:
                  'An HTML page that renders /openapi.json, with every asset served by the service itself, ' +
                  'compressed (br or gzip, as Accept-Encoding allows) and with a strong ETag.',
                responses: {
                  '200': {
                    description: 'The API reference page.',
                    headers: { ETag: STRONG_ETAG },
                    content: { 'text/html': { schema: { type: 'string' } } },
                  },
                  '304': NOT_MODIFIED,
                  ...transportErrorsBeside(),
                },
              }),
            ),
          }
        : {}),
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
      ...transportErrorsBeside(),
      [String(toErrorResponse(methodNotImplemented).status)]: errorResponse(CONNECT_REFUSED),
    },
    components: {
      schemas: {
        NewPlant: schemaOfCodec(CREATE_PLANT.request.codec, 'read', {
          description: 'The request shape: every field of Plant, plus the id.',
          fields: PLANT_FIELDS,
        }),
        Plant: schemaOfCodec(CREATE_PLANT.answer, 'written', {
          description:
            'The response shape: a plant as the store shows it, without its id. Strings are ' +
            'returned exactly as they were sent.',
          fields: PLANT_FIELDS,
        }),
        Error: schemaOfCodec(ErrorDocumentCodec, 'written', {
          description: 'What went wrong. Every error status answers this document.',
          fields: {
            error: { description: 'Numeric error indicator: the HTTP status code of the answer.' },
            message: { description: 'Error message text: what to fix, for a person.' },
          },
        }),
      },
      responses: Object.fromEntries(
        Object.entries(errorAnswersWithin(limits)).map(([name, answer]) => [name, errorResponse(answer)]),
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
