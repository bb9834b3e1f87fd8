import type { Violation } from '../../core/index.js'

const PREFIX = 'Invalid NewPlant: '
const FIELD = /^`([^`]*)` must be (.+)$/s
const WHOLE_BODY = /^the request body must be (.+)$/s

/**
 * The violations a 400 names, read back from its message: the service writes
 * "Invalid NewPlant: `id` must be …; `name` must be …." (a part for each wrong field, `the request
 * body must be …` when the body as a whole is wrong). Undefined when the message is not one of
 * these: then the 400 is about the request, not a field.
 */
export const violationsFromMessage = (message: string): ReadonlyArray<Violation> | undefined => {
  if (!message.startsWith(PREFIX) || !message.endsWith('.')) return undefined
  const parts = message.slice(PREFIX.length, -1).split('; ')
  const violations: Violation[] = []
  for (const part of parts) {
    const field = FIELD.exec(part)
    const whole = WHOLE_BODY.exec(part)
    if (field?.[1] !== undefined && field[2] !== undefined) violations.push({ path: field[1], expected: field[2] })
    else if (whole?.[1] !== undefined) violations.push({ path: '', expected: whole[1] })
    else return undefined
  }
  return violations
}
