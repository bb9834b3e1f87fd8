import type {
  AuthenticationUnavailable,
  InsufficientScope,
  InvalidInput,
  PlantConflict,
  StorageFull,
  StorageUnavailable,
  Unauthenticated,
} from '../../core/index.js'

/** What a 503 adds: the seconds the service asked to wait (`Retry-After`), when it said. */
export interface RetryAfter {
  readonly retryAfterSeconds: number | undefined
}

/**
 * No HTTP answer came: the connection was refused or dropped, the name did not resolve
 * (`Unreachable`), or no answer came within the client's `timeoutMs` (`Timeout`). The request
 * may or may not have reached the service; sending it again is safe (a replay answers 200).
 */
export interface TransportFailure {
  readonly _tag: 'TransportFailure'
  readonly reason: 'Unreachable' | 'Timeout'
  readonly cause: unknown
}

/**
 * An answer this API does not send: a status it never answers, a body that is not JSON, or JSON
 * that is not the Plant or Error document the status calls for (a proxy's error page, say).
 */
export interface UnexpectedResponse {
  readonly _tag: 'UnexpectedResponse'
  readonly status: number
  readonly detail: string
}

/**
 * An Error document that no domain error stands for: 500 (the service failed; the cause is in its
 * log), 413 (the body is over the service's limit), or a 400, 404, 405, 408, 415 or 431 that says
 * the request did not reach the operation as this client sends it (a wrong `baseUrl`, say); 417
 * and 501 refuse requests this client never makes (an `Expect` header, CONNECT).
 */
export interface ServiceError {
  readonly _tag: 'ServiceError'
  readonly status: number
  readonly message: string
}

/** The cause a 503 carries: the service's own words. */
export interface UnavailableCause {
  readonly status: 503
  readonly message: string
}

/**
 * Everything `createPlant` can fail with: the core's domain errors, as the service reported them,
 * and the client's own. Switch on `_tag`.
 */
export type PlantStoreClientError =
  | InvalidInput
  | PlantConflict
  | Unauthenticated
  | InsufficientScope
  | (StorageUnavailable & RetryAfter)
  | StorageFull
  | (AuthenticationUnavailable & RetryAfter)
  | ServiceError
  | TransportFailure
  | UnexpectedResponse

export const transportFailure = (reason: TransportFailure['reason'], cause: unknown): TransportFailure => ({
  _tag: 'TransportFailure',
  reason,
  cause,
})

export const unexpectedResponse = (status: number, detail: string): UnexpectedResponse => ({
  _tag: 'UnexpectedResponse',
  status,
  detail,
})

export const serviceError = (status: number, message: string): ServiceError => ({
  _tag: 'ServiceError',
  status,
  message,
})
