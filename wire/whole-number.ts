/** The longest delay Node's timers keep: a longer one fires after 1 ms, with a warning. */
export const MAX_TIMER_MS = 2_147_483_647

/**
 * `value` when it is a whole number from `min` to `max`; otherwise throws a RangeError naming the
 * option, for the embedder who built it. A bound given as NaN, as a string or below its least
 * would otherwise bound nothing, silently (`count >= NaN` is never true), and a timer's delay
 * beyond MAX_TIMER_MS would fire at once.
 */
export const wholeNumberOption = (where: string, option: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number => {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value
  throw new RangeError(`${where}: ${option} must be a whole number from ${min} to ${max}, not ${shown(value)}`)
}

const shown = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value) : typeof value === 'bigint' ? `${value}n` : String(value)
