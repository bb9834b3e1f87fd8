/**
 * Says on stderr, in one line, why tests are pending: stdout belongs to the reporter (a JSON
 * reporter's output must stay parseable), and a stack trace would bury the reason.
 */
export const reportPending = (what: string, reason: unknown): void => {
  const text = (reason instanceof Error ? reason.message : String(reason)).replace(/\s+/g, ' ').trim().slice(0, 300)
  process.stderr.write(`pending: ${what}: ${text}\n`)
}
