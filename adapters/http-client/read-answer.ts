import * as E from 'fp-ts/lib/Either.js'
import { absurd, pipe } from 'fp-ts/lib/function.js'
import {
  authenticationUnavailable,
  insufficientScope,
  invalidInput,
  Plant,
  plantConflict,
  storageFull,
  storageUnavailable,
  unauthenticated,
  type PlantId,
} from '../../core/index.js'
import { readErrorDocument, storageLimitFrom, unavailableReasonFrom, violationsFromMessage } from '../../wire/index.js'
import { serviceError, unexpectedResponse, type PlantStoreClientError, type UnavailableCause } from './client-errors.js'
import { authParam, retryAfterSeconds } from './response-headers.js'

/** An HTTP answer as the client received it, its body read as text. */
export interface Answer {
  readonly status: number
  readonly headers: { get(name: string): string | null }
  readonly text: string
}

// Statuses the service answers with an Error document that no domain error stands for.


/**
 * The one place where an HTTP answer to `POST /plants` becomes the client's result: a Plant
 * decoded with the core's codec, or the domain error the status and Error document stand for.
 * Never throws: whatever the body holds, an answer this API does not send is `UnexpectedResponse`.
 */
export const readAnswer = (answer: Answer, sentId: PlantId, now: number): E.Either<PlantStoreClientError, Plant> => {
  const body = parseJson(answer.text)
  if (body === undefined) return E.left(unexpectedResponse(answer.status, 'the body is not JSON'))
  if (answer.status === 200) {
    return pipe(
      Plant.decode(body),
      E.mapLeft(() => unexpectedResponse(200, 'the body is not a Plant {"name", "tag"?}')),
    )
  }
  const document = readErrorDocument(body, answer.status)
  if (E.isLeft(document)) return E.left(unexpectedResponse(answer.status, document.left))
  const { message, error: status } = document.right
  switch (status) {
    case 400: {
      const violations = violationsFromMessage(message)
      return E.left(violations === undefined ? serviceError(400, message) : invalidInput(violations))
    }
    case 401: {
      const invalid = authParam(answer.headers.get('www-authenticate'), 'error') === 'invalid_token'
      return E.left(unauthenticated(invalid ? 'Invalid' : 'Missing', message))
    }
    case 403: {
      const scope = authParam(answer.headers.get('www-authenticate'), 'scope')
      return E.left(
        scope === undefined
          ? unexpectedResponse(403, 'a 403 without the scope it requires (WWW-Authenticate scope=)')
          : insufficientScope(scope),
      )
    }
    case 409:
      return E.left(plantConflict(sentId))
    case 503: {
      const cause: UnavailableCause = { status: 503, message }
      const retry = { retryAfterSeconds: retryAfterSeconds(answer.headers.get('retry-after'), now) }
      return E.left(
        // Any 503 of the API but the identity provider's leaves the plant's fate to storage: a
        // retry, here or at another instance, is a replay.
        unavailableReasonFrom(message) === 'IdentityProvider'
          ? { ...authenticationUnavailable(cause), ...retry }
          : { ...storageUnavailable(cause), ...retry },
      )
    }
    case 507:
      return E.left(storageFull(storageLimitFrom(message) ?? message))
    // What the service answers about the request or itself, not about plants.
    case 404:
    case 405:
    case 408:
    case 413:
    case 415:
    case 417:
    case 431:
    case 500:
    case 501:
      return E.left(serviceError(status, message))
    default:
      return absurd(status)
  }
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
