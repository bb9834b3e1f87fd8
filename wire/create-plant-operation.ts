import { NewPlant, Plant } from '../core/index.js'
import type { ErrorStatus } from './error-document.js'
import { jsonViolations, newPlantJsonText } from './new-plant-json.js'

// The one operation of the service, written once: the HTTP adapter routes it, the OpenAPI document
// describes it and the client calls it from this definition, so the three cannot name two methods,
// two paths, two lists of answers or two shapes of a body: the document's schemas and the
// client's JSON text are derived from the codecs named here.

/**
 * What each status the operation answers means, by the name the OpenAPI document gives that
 * answer: 200 is the Plant, every other status an Error document. Answers any request may get
 * from the transport (a request that is not well-formed HTTP, too slow, with headers too large)
 * are not the operation's: the document lists them beside every path.
 */
const CREATE_PLANT_STATUSES = {
  200: 'Plant',
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  507: 'InsufficientStorage',
} as const satisfies { readonly 200: 'Plant' } & { readonly [S in ErrorStatus]?: string }

/**
 * The createPlant operation: where a client sends it, how its body is written and what is wrong
 * in one worded, and what it can be answered. The path is relative to the service's base path.
 */
export const CREATE_PLANT = {
  operationId: 'createPlant',
  method: 'POST',
  path: '/plants',
  request: {
    /** The codec of the request's body, which the core parses it with. */
    codec: NewPlant,
    /** The media type a client sends the body as; the service reads any JSON media type. */
    mediaType: 'application/json',
    /** How a client writes the NewPlant: JSON text with the id as its exact digits. */
    write: newPlantJsonText,
    /**
     * How the service words the core's violations of a body it read as JSON text (with the exact
     * JSON reader, exact-json/, which this definition leaves out: the client must not need
     * lossless-json).
     */
    violations: jsonViolations,
  },
  /** The codec of a 200 answer's body. */
  answer: Plant,
  statuses: CREATE_PLANT_STATUSES,
} as const

/** Each status the createPlant operation answers. */
export type CreatePlantStatus = keyof typeof CREATE_PLANT_STATUSES

/** Each status the createPlant operation answers with an Error document. */
export type CreatePlantErrorStatus = Exclude<CreatePlantStatus, 200>

/** The names of the Error answers the createPlant operation gives, as the OpenAPI document names them. */
export type CreatePlantErrorAnswer = (typeof CREATE_PLANT_STATUSES)[CreatePlantErrorStatus]

/** The statuses the createPlant operation answers with an Error document, each with its answer's name. */
export const CREATE_PLANT_ERRORS: ReadonlyArray<readonly [CreatePlantErrorStatus, CreatePlantErrorAnswer]> = Object.entries(
  CREATE_PLANT_STATUSES,
)
  .filter(([status]) => status !== '200')
  .map(([status, answer]) => [Number(status) as CreatePlantErrorStatus, answer as CreatePlantErrorAnswer])

/** Whether an Error status is one the createPlant operation answers. */
export const isCreatePlantError = (status: number): status is CreatePlantErrorStatus =>
  status !== 200 && Object.hasOwn(CREATE_PLANT_STATUSES, status)
