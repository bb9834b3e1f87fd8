// Each Error answer the service gives, as rows the document refers to by name: the problems that
// produce it (so the examples and headers come from the error mapper and cannot drift from it),
// and what it means to a client.
import * as E from 'fp-ts/lib/Either.js'
import type * as OpenApi from 'openapi3-ts/oas31'
import {
  authenticationUnavailable,
  decodeNewPlant,
  insufficientScope,
  invalidInput,
  plantConflict,
  storageFull,
  storageUnavailable,
  type PlantId,
} from '../../../core/index.js'
import { bearerTokenFrom, bearerTokenOf } from '../context/request-head.js'
import { toErrorResponse, type Problem } from '../errors/error-response.js'
import { CREATE_PLANT, type CreatePlantErrorAnswer, type CreatePlantErrorStatus } from '../../../wire/index.js'
import { parseExactJson } from '../../../wire/exact-json/index.js'
import {
  connectionsOverShare,
  expectationFailed,
  headersTooLarge,
  malformedBody,
  malformedRequest,
  methodNotImplemented,
  unknownMethod,
  unknownTransferCoding,
  payloadTooLarge,
  requestTimeout,
  shuttingDown,
  unexpectedFailure,
  unsupportedMediaType,
} from '../errors/problems.js'

// A problem as the code that reports it makes it, so the examples show what clients really get.
const refusal = <P>(result: E.Either<P, unknown>): P => {
  if (E.isRight(result)) throw new TypeError('openApiDocument: an example refusal was accepted')
  return result.left
}

const NOT_A_NEW_PLANT = { name: 1, tag: false }

// Each Error answer of the service, by the name it has under components.responses: the problems
// the mapper turns into it (the status, the example messages and the headers' examples come from
// the mapper), what it means, and what each header it carries says. A new Error answer is a row
// here, then its name in the operations (or extensions) that can give it.
export const ERROR_ANSWERS = {
  BadRequest: {
    problems: [
      // Worded for the JSON text the client sent, as the operation words it.
      invalidInput(CREATE_PLANT.request.violations(NOT_A_NEW_PLANT, refusal(decodeNewPlant(NOT_A_NEW_PLANT)).violations)),
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
    problems: [
      refusal(bearerTokenFrom(undefined)),
      refusal(bearerTokenFrom('Basic dXNlcjpwYXNz')),
      refusal(bearerTokenOf({ authorizationLines: 2, authorization: 'Bearer one' })),
    ],
    description:
      'No valid credential: the Authorization header is missing, sent more than once, uses another scheme than Bearer ' +
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
    description: 'The body is larger than this service accepts; the message says the limit in bytes.',
  },
  UnsupportedMediaType: {
    problems: [unsupportedMediaType('Send the request body as application/json.')],
    description:
      'The Content-Type is not JSON (`application/json` or `application/*+json`), is sent more than once, names a charset ' +
      'other than UTF-8, or the Content-Encoding is none of gzip, deflate, br and identity (named in any case).',
  },
  InternalError: {
    problems: [unexpectedFailure(new Error('a defect'))],
    description: 'Something unexpected failed. The message is generic and shows no internals.',
  },
  InsufficientStorage: {
    problems: [storageFull('100000 plants')],
    description:
      'The store holds as many plants as it is allowed to. No new plant is stored; plants already stored are kept, and sending ' +
      'one of them again is still answered 200. Retrying the same new plant will not help.',
  },
  NotReady: {
    problems: [storageUnavailable(new Error('down')), shuttingDown, connectionsOverShare],
    description:
      'This instance should not get traffic now: storage does not answer, or the instance is ' +
      'shutting down (from the moment it is told to stop, while it still serves what arrives); or the client ' +
      'holds as many connections as it may, and the request was not read.',
    headers: { 'Retry-After': 'Seconds to wait before asking again.' },
  },
  ServiceUnavailable: {
    problems: [storageUnavailable(new Error('down')), authenticationUnavailable(new Error('down')), connectionsOverShare],
    description:
      "Storage, or the identity provider's key set, cannot be reached or did not answer in time; or the client holds " +
      'as many connections as it may, and the request was not read. Retrying is safe: a create with the same id, name ' +
      'and tag is a replay.',
    headers: { 'Retry-After': 'Seconds to wait before retrying.' },
  },
  NotWellFormed: {
    problems: [malformedRequest],
    description: 'The request is not well-formed HTTP/1.1 (such as a request line Node cannot read, naming a version other than HTTP/1.0 and 1.1 or a target with a fragment, or a Host header missing, repeated or not a host and port).',
  },
  RequestTimeout: {
    problems: [requestTimeout],
    description: 'The request did not arrive in time. The connection is closed.',
  },
  ExpectationFailed: {
    problems: [expectationFailed],
    description: 'The request has an `Expect` header other than `100-continue`, the only expectation this service meets.',
  },
  NotImplemented: {
    problems: [unknownTransferCoding, unknownMethod],
    description:
      'The request names a transfer coding before `chunked` that the service does not decode (`gzip, chunked`), or a method ' +
      'no server here implements (`BREW`). The connection is closed.',
  },
  HeadersTooLarge: {
    problems: [headersTooLarge],
    description: 'The request headers are larger than the server reads. The connection is closed.',
  },
  OverConnectionShare: {
    problems: [connectionsOverShare],
    description:
      'The client (its address, or its IPv6 network) holds as many connections as it may: the request on this new ' +
      'connection was not read, and the connection is closed. Its other connections are kept.',
    headers: { 'Retry-After': 'Seconds to wait before opening another connection.' },
  },
} satisfies Record<string, ErrorAnswer>

// A CONNECT names an authority, not a path: its answer stands beside unknown paths, written out
// there (a component referred to from an extension only counts as unused to the linters).
export const CONNECT_REFUSED: ErrorAnswer = {
  problems: [methodNotImplemented, unknownMethod, unknownTransferCoding],
  description:
    'A CONNECT request (this service is not a proxy), a method no server here implements (`BREW`), or a transfer coding ' +
    'before `chunked` that the service does not decode. The connection is closed.',
}

export interface ErrorAnswer {
  readonly problems: readonly [Problem, ...Problem[]]
  readonly description: string
  readonly headers?: Readonly<Record<string, string>>
}

export type ErrorAnswerName = keyof typeof ERROR_ANSWERS

/** The limits of the app the document describes, which its examples state. */
export interface DocumentedLimits {
  /** Largest request body accepted, in bytes. */
  readonly bodyLimitBytes: number
}

/** The Error answers with the examples of the app's own limits. */
export const errorAnswersWithin = (limits: DocumentedLimits): Readonly<Record<ErrorAnswerName, ErrorAnswer>> => ({
  ...ERROR_ANSWERS,
  PayloadTooLarge: { ...ERROR_ANSWERS.PayloadTooLarge, problems: [payloadTooLarge(limits.bodyLimitBytes)] },
})

/** `{ [status]: $ref }` for each named Error answer, each under the status the mapper gives it. */
export const errors = (...names: ReadonlyArray<ErrorAnswerName>): OpenApi.ResponsesObject => {
  const entries = names.map((name) => [statusOf(name), { $ref: `#/components/responses/${name}` }] as const)
  if (new Set(entries.map(([status]) => status)).size < entries.length) {
    throw new TypeError(`openApiDocument: two answers under one status among ${names.join(', ')}`)
  }
  return Object.fromEntries(entries)
}

export const statusOf = (name: ErrorAnswerName): string => String(toErrorResponse(ERROR_ANSWERS[name].problems[0]).status)

/**
 * The names of an operation's Error answers, as its definition lists them by status. Each name is
 * a row above (or this does not compile), and each must be answered under the status the
 * definition gives it: the mapper decides the status, so a definition that disagrees is refused
 * when the document is built.
 */
export const operationErrors = (
  statuses: ReadonlyArray<readonly [CreatePlantErrorStatus, CreatePlantErrorAnswer]>,
): ReadonlyArray<ErrorAnswerName> =>
  statuses.map(([status, name]) => {
    if (statusOf(name) !== String(status)) {
      throw new TypeError(`openApiDocument: the operation lists ${name} under ${status}, but it is answered ${statusOf(name)}`)
    }
    return name
  })

// What any request may get from Node's HTTP parser, the Host check or the connection shares, whatever its operation.
const TRANSPORT: ReadonlyArray<ErrorAnswerName> = ['NotWellFormed', 'RequestTimeout', 'ExpectationFailed', 'HeadersTooLarge', 'NotImplemented', 'OverConnectionShare']
export const transportErrorsBeside = (...names: ReadonlyArray<ErrorAnswerName>): OpenApi.ResponsesObject => {
  const taken = new Set(names.map(statusOf))
  return errors(...names, ...TRANSPORT.filter((name) => !taken.has(statusOf(name))))
}

// Every Error answer is the same document; the words, the examples and the headers differ.
export const errorResponse = ({ problems, description, headers = {} }: ErrorAnswer): OpenApi.ResponseObject => {
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
