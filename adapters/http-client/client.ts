import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import { BearerToken, newPlant, unauthenticated, type Clock, type NewPlant, type NewPlantFields, type Plant } from '../../core/index.js'
import { transportFailure, unexpectedResponse, type PlantStoreClientError } from './client-errors.js'
import { readAnswer, type Answer } from './read-answer.js'
import { CREATE_PLANT, MAX_TIMER_MS, readBoundedBody, systemClock, wholeNumberOption } from '../../wire/index.js'

/**
 * The most an answer's body may hold: the service's answers are a few hundred bytes (a Plant, an
 * Error document), so anything near this is not the API speaking, and is not read whole.
 */
const MAX_ANSWER_BYTES = 64 * 1024

// An answer that is not UTF-8 is read with replacement characters, and then fails as JSON.
const utf8 = new TextDecoder()

export interface PlantStoreClientOptions {
  /** Where the service answers, with its `BASE_PATH` if it has one: `https://plants.example.com/api/v1`. */
  readonly baseUrl: string
  /** The bearer token sent with every request: a static token or a JWT access token. */
  readonly token: string
  /** The `fetch` to send requests with; the platform's by default. */
  readonly fetch?: typeof globalThis.fetch
  /**
   * How long a request may take, its answer's body included, before it is a `TransportFailure`
   * with reason `Timeout`; 10 s by default.
   */
  readonly timeoutMs?: number
  /**
   * Where `timeoutMs` is timed and a `Retry-After` date is read against; `systemClock` when
   * absent. A test passes a virtual clock (with its own `fetch`) to reach a time-out without waiting.
   */
  readonly clock?: Clock
}

export interface PlantStoreClient {
  /**
   * Creates a plant: `POST {baseUrl}/plants`. The id travels as the exact digits of the bigint.
   * Fields are checked first with the core's codec, so an invalid plant is `InvalidInput` without
   * a request. A replay (the same plant again) answers the stored Plant, as the service does.
   */
  readonly createPlant: (plant: NewPlantFields) => TE.TaskEither<PlantStoreClientError, Plant>
  /** The same calls, each started at once and answered as a Promise: still never rejected, every failure a `Left`. */
  readonly promises: PlantStorePromiseClient
}

/**
 * The client for code that awaits rather than composes tasks: `await client.promises.createPlant(x)`
 * is `await client.createPlant(x)()`. The Promise resolves to an `Either` (`_tag` `'Right'` with
 * the Plant, or `'Left'` with the error), and never rejects.
 */
export interface PlantStorePromiseClient {
  /** Creates a plant, as `PlantStoreClient.createPlant` does, sending the request at once. */
  readonly createPlant: (plant: NewPlantFields) => Promise<E.Either<PlantStoreClientError, Plant>>
}

const DEFAULT_TIMEOUT_MS = 10_000

/**
 * A typed client of a running Plant Store service. Building it sends nothing; it throws only for
 * a mistake in the caller's code: a TypeError for a `baseUrl` that is not an absolute http(s) URL,
 * a RangeError for a `timeoutMs` that is not a whole number from 1 to 2147483647 (which every
 * call would otherwise report as a server it cannot reach).
 *
 * @example
 * ```ts
 * import { createPlantStoreClient } from 'plant-store/client'
 *
 * const client = createPlantStoreClient({ baseUrl: 'https://plants.example.com/api/v1', token: 's3cret-token' })
 * const answer = await client.promises.createPlant({ id: 9007199254740993n, name: 'Monstera deliciosa' })
 * if (answer._tag === 'Left') console.error(answer.left._tag)
 * else console.log(answer.right) // { name: 'Monstera deliciosa' }
 * ```
 */
export const createPlantStoreClient = (options: PlantStoreClientOptions): PlantStoreClient => {
  const operationUrl = operationUrlOf(options.baseUrl)
  const send = options.fetch ?? globalThis.fetch
  const timeoutMs = wholeNumberOption('createPlantStoreClient', 'timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1, MAX_TIMER_MS)
  const token = BearerToken.decode(options.token)
  const clock = options.clock ?? systemClock

  const post = (plant: NewPlant, credential: BearerToken): TE.TaskEither<PlantStoreClientError, Plant> =>
    pipe(
      TE.tryCatch(
        // The timeout's signal covers the body too: fetch fails a read of it once the signal fires.
        // It is cancelled once the answer is read, so no timer outlives its call.
        async (): Promise<E.Either<PlantStoreClientError, Answer>> => {
          const timeout = new AbortController()
          const cancelTimeout = clock.setTimer(timeoutMs, () => timeout.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')))
          try {
            return await exchange(plant, credential, timeout.signal)
          } finally {
            cancelTimeout()
          }
        },
        (cause): PlantStoreClientError => transportFailure(isTimeout(cause) ? 'Timeout' : 'Unreachable', cause),
      ),
      TE.flatMapEither(E.flatMap((answer) => readAnswer(answer, plant.id, clock.epochMs()))),
    )

  const exchange = async (plant: NewPlant, credential: BearerToken, signal: AbortSignal): Promise<E.Either<PlantStoreClientError, Answer>> => {
    const response = await send(operationUrl, {
      method: CREATE_PLANT.method,
      headers: {
        Authorization: `Bearer ${credential}`,
        'Content-Type': CREATE_PLANT.request.mediaType,
        Accept: 'application/json',
      },
      body: CREATE_PLANT.request.write(plant),
      redirect: 'manual',
      signal,
    })
    const body = await readBoundedBody(response, MAX_ANSWER_BYTES)
    return E.isLeft(body)
      ? E.left(unexpectedResponse(response.status, `the body is larger than the ${body.left} bytes any answer of this API holds`))
      : E.right({ status: response.status, headers: response.headers, text: utf8.decode(body.right) })
  }

  const createPlant = (fields: NewPlantFields): TE.TaskEither<PlantStoreClientError, Plant> =>
    pipe(
      TE.fromEither(
        E.isLeft(token)
          ? E.left(unauthenticated('Invalid', 'The client was given a token that is not an RFC 6750 bearer token.'))
          : E.right(token.right),
      ),
      TE.flatMap((credential) =>
        pipe(
          // Checking waits until the task runs: building a TaskEither does no work.
          TE.fromIOEither(() => newPlant(fields)),
          TE.flatMap((plant) => post(plant, credential)),
        ),
      ),
    )
  return { createPlant, promises: { createPlant: (fields) => createPlant(fields)() } }
}

const operationUrlOf = (baseUrl: string): string => {
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new TypeError('createPlantStoreClient: baseUrl must be an absolute http or https URL')
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}${CREATE_PLANT.path}`
}

const isTimeout = (cause: unknown): boolean => cause instanceof Error && cause.name === 'TimeoutError'
