/**
 * The statuses the service answers with an Error document. Each is a literal, so the `error`
 * field of the document is an int32 by construction, and a new status is a deliberate change here.
 */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 408 | 409 | 413 | 415 | 417 | 431 | 500 | 501 | 503 | 507

/** The Error document of the API: `error` is the HTTP status, `message` tells a person what to fix. */
export interface ErrorDocument {
  readonly error: ErrorStatus
  readonly message: string
}
