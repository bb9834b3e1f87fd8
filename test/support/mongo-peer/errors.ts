// How mongod answers a command that fails: `{ok: 0}` with a code, and the labels mongod gives it:
// RetryableWriteError where the command is a retryable write and the code is one mongod retries
// (with NoWritesPerformed when the command wrote nothing), and SystemOverloadedError with
// RetryableError where the code says the server is overloaded.
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

// The codes of an overloaded server (ingress rate limits, full admission queues): drivers back off
// and retry on the SystemOverloadedError and RetryableError labels, as mongod's own callers do.
const OVERLOAD_CODES = new Set(codesInCategories(['SystemOverloadedError']).map(({ code }) => code))

const isRetryableWrite = (command: Document): boolean =>
  command.txnNumber !== undefined && command.autocommit === undefined

/**
 * The error labels mongod gives a reply carrying `code`, for this command. `wrote`: whether the
 * command wrote anything before it failed; mongod adds NoWritesPerformed to a RetryableWriteError
 * when it did not (its last optime unchanged), which tells the driver to report an earlier
 * attempt's error instead of this one.
 */
export const labelsFor = (code: number, command: Document, wrote: boolean): Document => {
  const labels = [
    ...(RETRYABLE_WRITE_CODES.has(code) && isRetryableWrite(command) ? ['RetryableWriteError', ...(wrote ? [] : ['NoWritesPerformed'])] : []),
    ...(OVERLOAD_CODES.has(code) ? ['SystemOverloadedError', 'RetryableError'] : []),
  ]
  return labels.length === 0 ? {} : { errorLabels: labels }
}

/** A command error labelled as mongod labels it for this command; `wrote` as for labelsFor. */
export const labelledCommandError = (code: number, codeName: string, errmsg: string, command: Document, wrote: boolean): Document => ({
  ...commandError(code, codeName, errmsg),
  ...labelsFor(code, command, wrote),
})
