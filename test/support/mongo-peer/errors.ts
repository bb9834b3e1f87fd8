// How mongod answers a command that fails: `{ok: 0}` with a code, and the RetryableWriteError
// label where the command is a retryable write and the code is one mongod retries.
import type { Document } from 'bson'
import { codesInCategories } from './error-codes.js'

/** `{ok: 0}` with a code, as mongod answers a failed command. */
export const commandError = (code: number, codeName: string, errmsg: string): Document => ({
  ok: 0,
  errmsg,
  code,
  codeName,
})

// mongod (4.4+) labels a failed retryable write RetryableWriteError when the code is in the
// RetriableError category of its error_codes.yml (ErrorCodes::isRetriableError).
const RETRYABLE_WRITE_CODES = new Set(codesInCategories(['RetriableError']).map(({ code }) => code))

const isRetryableWrite = (command: Document): boolean =>
  command.txnNumber !== undefined && command.autocommit === undefined

/** The error labels mongod gives a reply carrying `code`, for this command. */
export const labelsFor = (code: number, command: Document): Document =>
  RETRYABLE_WRITE_CODES.has(code) && isRetryableWrite(command) ? { errorLabels: ['RetryableWriteError'] } : {}

/** A command error labelled as mongod labels it for this command. */
export const labelledCommandError = (code: number, codeName: string, errmsg: string, command: Document): Document => ({
  ...commandError(code, codeName, errmsg),
  ...labelsFor(code, command),
})
