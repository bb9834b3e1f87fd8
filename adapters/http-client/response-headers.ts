/**
 * The value of one auth-param (`error`, `scope`) of a `WWW-Authenticate: Bearer …` header, quoted
 * or as a token (RFC 7235 section 2.1); undefined when the header does not carry it.
 */
export const authParam = (header: string | null, name: string): string | undefined => {
  if (header === null) return undefined
  const pattern = new RegExp(`(?:^|[\\s,])${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s,]+))`, 'i')
  const match = pattern.exec(header)
  if (match === null) return undefined
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2]
}

// RFC 9110 section 5.6.7, IMF-fixdate: what servers send (Date.parse alone would read "-1" as a year).
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/

/** The longest wait a `Retry-After` is read as: an hour. The service asks for a second. */
export const MAX_RETRY_AFTER_SECONDS = 3600

/**
 * Seconds to wait from a `Retry-After` header: delta-seconds, or an HTTP-date counted from `now`
 * (0 once it has passed), at most `MAX_RETRY_AFTER_SECONDS`, so a hostile or broken server cannot
 * park a caller for ever; undefined when the header is absent or neither.
 */
export const retryAfterSeconds = (header: string | null, now: number): number | undefined => {
  if (header === null) return undefined
  const text = header.trim()
  const date = IMF_FIXDATE.test(text) ? Date.parse(text) : Number.NaN
  const seconds = /^\d+$/.test(text) ? Number(text) : Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
  return seconds === undefined ? undefined : Math.min(seconds, MAX_RETRY_AFTER_SECONDS)
}
