import type { Violation } from '../core/index.js'

// The spec fixes the Error document at `{"error", "message"}`: where a client must tell two
// answers of one status apart, or get back what a 400 names, the message is all it has. Each
// message that carries such a fact is written and read here, side by side, and a property test
// proves that reading what was written gives back what was written.

const INVALID_NEW_PLANT = 'Invalid NewPlant: '
const FIELD = /^`([^`]*)` must be (.+)$/s
const MISSING_FIELD = /^`([^`]*)` is missing: it must be (.+)$/s
const WHOLE_BODY = /^the request body must be (.+)$/s

/**
 * The 400 message naming each wrong field: "Invalid NewPlant: `id` must be …; `name` is missing:
 * it must be …." (`the request body must be …` when the body as a whole is wrong). Readable back
 * when no path holds a backtick and no expectation holds "; ", as the core's violations never do.
 */
export const invalidNewPlantMessage = (violations: ReadonlyArray<Violation>): string =>
  `${INVALID_NEW_PLANT}${violations.map(fieldSentence).join('; ')}.`

const fieldSentence = ({ path, expected, missing }: Violation): string => {
  if (path === '') return `the request body must be ${expected}`
  return missing === true ? `\`${path}\` is missing: it must be ${expected}` : `\`${path}\` must be ${expected}`
}

/** The violations an `invalidNewPlantMessage` names; undefined for any other 400 message. */
export const violationsFromMessage = (message: string): ReadonlyArray<Violation> | undefined => {
  if (!message.startsWith(INVALID_NEW_PLANT) || !message.endsWith('.')) return undefined
  const violations: Violation[] = []
  for (const part of message.slice(INVALID_NEW_PLANT.length, -1).split('; ')) {
    const missing = MISSING_FIELD.exec(part)
    const field = FIELD.exec(part)
    const whole = WHOLE_BODY.exec(part)
    if (missing?.[1] !== undefined && missing[2] !== undefined) violations.push({ path: missing[1], expected: missing[2], missing: true })
    else if (field?.[1] !== undefined && field[2] !== undefined) violations.push({ path: field[1], expected: field[2] })
    else if (whole?.[1] !== undefined) violations.push({ path: '', expected: whole[1] })
    else return undefined
  }
  return violations
}

/** Why the service answered 503: each cause has a message of its own. */
export type UnavailableReason = 'Storage' | 'IdentityProvider' | 'ShuttingDown' | 'DecodersBusy' | 'ConnectionShare' | 'Deadline'

const UNAVAILABLE_MESSAGES: Readonly<Record<UnavailableReason, string>> = {
  Storage: 'Storage is unavailable; try again shortly.',
  IdentityProvider: 'The identity provider cannot be reached to check the token; try again shortly.',
  ShuttingDown: 'This instance is shutting down; send requests to another one.',
  DecodersBusy: 'This instance is busy decompressing other request bodies; try again shortly, or send the body uncompressed.',
  ConnectionShare: 'This client (its address, or its IPv6 network) holds as many connections as it may; send requests on those, or try again shortly.',
  Deadline: 'This instance could not read the request body within its deadline; try again shortly.',
}

/** The 503 message of a cause. */
export const unavailableMessage = (reason: UnavailableReason): string => UNAVAILABLE_MESSAGES[reason]

/** The cause a 503 message names; undefined for a message this API does not write. */
export const unavailableReasonFrom = (message: string): UnavailableReason | undefined =>
  (Object.keys(UNAVAILABLE_MESSAGES) as ReadonlyArray<UnavailableReason>).find((reason) => UNAVAILABLE_MESSAGES[reason] === message)

const STORAGE_FULL = /^Storage is full \((.*)\): no new plant can be stored; plants already stored can still be sent again\.$/s

/** The 507 message, naming the bound the store reached (`100000 plants`, say). */
export const storageFullMessage = (limit: string): string =>
  `Storage is full (${limit}): no new plant can be stored; plants already stored can still be sent again.`

/** The bound a `storageFullMessage` names; undefined for any other message. */
export const storageLimitFrom = (message: string): string | undefined => STORAGE_FULL.exec(message)?.[1]
