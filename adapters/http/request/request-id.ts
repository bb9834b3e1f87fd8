import { randomUUID } from 'node:crypto'

/**
 * A request id a client or a proxy may choose: 1 to 128 characters of `A-Z a-z 0-9` and
 * `- . _ ~ : / + = @`. Anything else (spaces, quotes, control characters, a longer value) could
 * forge or break a log line, so it is replaced, not cleaned.
 */
export const REQUEST_ID_PATTERN = '^[A-Za-z0-9\\-._~:/+=@]{1,128}$'
const WELL_FORMED = new RegExp(REQUEST_ID_PATTERN)

/** The incoming `X-Request-Id` when it is well-formed, otherwise a fresh random UUID. */
export const requestIdFrom = (header: string | undefined): string =>
  header !== undefined && WELL_FORMED.test(header) ? header : randomUUID()
