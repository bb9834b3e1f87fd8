import type { DomainError } from '../../../core/index.js'
import {
  errorAnswer,
  invalidNewPlantMessage,
  storageFullMessage,
  unavailableMessage,
  type ErrorAnswer,
  type ErrorStatus,
} from '../../../wire/index.js'
import type { RequestProblem } from './problems.js'

/** Everything a request can fail with: the domain's errors and the transport's. */
export type Problem = DomainError | RequestProblem

const REALM = 'Bearer realm="plant-store"'

/**
 * The one place where a problem becomes an HTTP answer: its status, headers and Error document,
 * for every writer (the app's responses, the server's own answers on a socket). The switch is exhaustive: a new error
 * variant does not compile until it is given a status here.
 */
export const toErrorResponse = (problem: Problem): ErrorAnswer => {
  switch (problem._tag) {
    case 'InvalidInput':
      return answer(400, invalidNewPlantMessage(problem.violations))
    case 'MalformedBody':
      return answer(400, `Send a JSON object: ${problem.detail}.`)
    case 'MalformedRequest':
      return answer(400, 'The request is not well-formed HTTP/1.1.')
    case 'Unauthenticated':
      return problem.reason === 'Missing'
        ? answer(401, problem.detail, { 'WWW-Authenticate': REALM })
        : answer(401, problem.detail, { 'WWW-Authenticate': `${REALM}, error="invalid_token"` })
    case 'InsufficientScope':
      return answer(403, `The access token lacks the scope "${problem.requiredScope}".`, {
        'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${problem.requiredScope}"`,
      })
    case 'RouteNotFound':
      return answer(404, 'There is nothing at this path; /openapi.json lists the operations.')
    case 'MethodNotAllowed':
      return answer(405, `Use ${problem.allowed.join(' or ')} here.`, { Allow: problem.allowed.join(', ') })
    case 'RequestTimeout':
      return answer(408, 'The request took too long to arrive.')
    case 'PlantConflict':
      return answer(
        409,
        `A different plant is already stored under id ${problem.id}; send the same name and tag to repeat a create, or use another id.`,
      )
    case 'PayloadTooLarge':
      return answer(413, `The request body is larger than ${problem.limitBytes} bytes.`)
    case 'UnsupportedMediaType':
      return answer(415, problem.detail)
    case 'ExpectationFailed':
      return answer(417, 'The only expectation this service meets is "Expect: 100-continue".')
    case 'HeadersTooLarge':
      return answer(431, 'The request headers are too large.')
    case 'MethodNotImplemented':
      return answer(501, 'This service is not a proxy: CONNECT is not supported; /openapi.json lists the operations.')
    case 'UnknownMethod':
      return answer(501, 'This service does not implement the request method: send GET, HEAD or POST, as /openapi.json lists them for each path.')
    case 'UnknownTransferCoding':
      return answer(
        501,
        'The only transfer coding this service reads is chunked: send the body with Transfer-Encoding: chunked alone, or with a Content-Length, and compress it with Content-Encoding (gzip, deflate, br).',
      )
    case 'ShuttingDown':
      return answer(503, unavailableMessage('ShuttingDown'), { 'Retry-After': '1' })
    case 'DecodersBusy':
      return answer(503, unavailableMessage('DecodersBusy'), { 'Retry-After': '1' })
    case 'ConnectionsOverShare':
      return answer(503, unavailableMessage('ConnectionShare'), { 'Retry-After': '1' })
    case 'DeadlinePassed':
      return answer(503, unavailableMessage('Deadline'), { 'Retry-After': '1' })
    case 'StorageUnavailable':
      return problem.configurationFault === undefined
        ? answer(503, unavailableMessage('Storage'), { 'Retry-After': '1' })
        : answer(503, `Storage refuses this service's configuration: ${problem.configurationFault}. An operator must correct it.`, {
            'Retry-After': '1',
          })
    case 'StorageFull':
      return answer(507, storageFullMessage(problem.limit))
    case 'AuthenticationUnavailable':
      return answer(503, unavailableMessage('IdentityProvider'), { 'Retry-After': '1' })
    case 'UnexpectedFailure':
      return answer(500, 'Something went wrong on our side; the failure has been logged.')
    default:
      return absurd(problem)
  }
}

const answer = (status: ErrorStatus, message: string, headers: Record<string, string> = {}): ErrorAnswer =>
  errorAnswer(status, message, headers)

const absurd = (value: never): never => {
  throw new Error(`unhandled problem: ${JSON.stringify(value)}`)
}
