import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import {
  authenticationUnavailable,
  insufficientScope,
  invalidInput,
  plantConflict,
  storageFull,
  storageUnavailable,
  unauthenticated,
  type Plant,
  type PlantId,
} from '../../core/index.js'
import {
  CREATE_PLANT,
  isCreatePlantError,
  readErrorDocument,
  storageLimitFrom,
  unavailableReasonFrom,
  violationsFromMessage,
  type CreatePlantErrorStatus,
  type ErrorDocument,
} from '../../wire/index.js'
import { serviceError, unexpectedResponse, type PlantStoreClientError, type UnavailableCause } from './client-errors.js'
import { authParam, retryAfterSeconds } from './response-headers.js'

/** An HTTP answer as the client received it, its body read as text. */
export interface Answer {
  readonly status: number
  readonly headers: { get(name: string): string | null }
  readonly text: string
}

/**
 * The one place where an HTTP answer to the createPlant operation becomes the client's result: a
 * Plant decoded with the operation's codec, or the domain error the status and Error document
 * stand for. Never throws: whatever the body holds, an answer this API does not send is
 * `UnexpectedResponse`.
 */
export const readAnswer = (answer: Answer, sentId: PlantId, now: number): E.Either<PlantStoreClientError, Plant> => {
  const body = parseJson(answer.text)
  if (body === undefined) return E.left(unexpectedResponse(answer.status, 'the body is not JSON'))
  if (answer.status === 200) {
    return pipe(
      CREATE_PLANT.answer.decode(body),
      E.mapLeft(() => unexpectedResponse(200, 'the body is not a Plant {"name", "tag"?}')),
    )
  }
  const document = readErrorDocument(body, answer.status)
  if (E.isLeft(document)) return E.left(unexpectedResponse(answer.status, document.left))
  const { error: status } = document.right
  // An Error status the operation does not list says what the service made of the request or of
  // itself (a wrong baseUrl's 404, say), not of plants.
  const read = isCreatePlantError(status) ? ERROR_READERS[status] : asServiceError
  return E.left(read(document.right, answer, sentId, now))
}

/** How an Error answer of the operation becomes the client's error. */
type ErrorReader = (document: ErrorDocument, answer: Answer, sentId: PlantId, now: number) => PlantStoreClientError

const asServiceError: ErrorReader = ({ error, message }) => serviceError(error, message)

// One reader for each Error status the operation's definition lists: a status added there does
// not compile until it is read here.
const ERROR_READERS: { readonly [S in CreatePlantErrorStatus]: ErrorReader } = {
  400: ({ message }) => {
    const violations = violationsFromMessage(message)
    return violations === undefined ? serviceError(400, message) : invalidInput(violations)
  },
  401: ({ message }, answer) => {
    const invalid = authParam(answer.headers.get('www-authenticate'), 'error') === 'invalid_token'
    return unauthenticated(invalid ? 'Invalid' : 'Missing', message)
  },
  403: (_document, answer) => {
    const scope = authParam(answer.headers.get('www-authenticate'), 'scope')
    return scope === undefined
      ? unexpectedResponse(403, 'a 403 without the scope it requires (WWW-Authenticate scope=)')
      : insufficientScope(scope)
  },
  409: (_document, _answer, sentId) => plantConflict(sentId),
  413: asServiceError,
  415: asServiceError,
  500: asServiceError,
  503: ({ message }, answer, _sentId, now) => {
    const cause: UnavailableCause = { status: 503, message }
    const retry = { retryAfterSeconds: retryAfterSeconds(answer.headers.get('retry-after'), now) }
    // Any 503 of the API but the identity provider's leaves the plant's fate to storage: a
    // retry, here or at another instance, is a replay.
    return unavailableReasonFrom(message) === 'IdentityProvider'
      ? { ...authenticationUnavailable(cause), ...retry }
      : { ...storageUnavailable(cause), ...retry }
  },
  507: ({ message }) => storageFull(storageLimitFrom(message) ?? message),
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
