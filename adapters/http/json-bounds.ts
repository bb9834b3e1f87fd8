import type { JsonLimits } from './exact-json.js'

/**
 * Scans a JSON text once, left to right, for the first bound it breaks: nesting deeper than
 * `maxDepth`, or a number longer than `maxNumberLength`. Strings are skipped (escapes included)
 * so brackets and digits inside them do not count. On a malformed text the answer may be either
 * bound or none; the parser that runs next refuses such a text anyway, and it can never nest
 * deeper than this scan counted, since the two agree on where strings start and end.
 */
export const findExcess = (text: string, { maxDepth, maxNumberLength }: JsonLimits): 'depth' | 'number' | undefined => {
  let depth = 0
  let numberRun = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === BACKSLASH) i++
      else if (code === QUOTE) inString = false
      continue
    }
    if (isNumberCharacter(code)) {
      if (++numberRun > maxNumberLength) return 'number'
      continue
    }
    numberRun = 0
    if (code === QUOTE) inString = true
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > maxDepth) return 'depth'
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--
  }
  return undefined
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d

// Every character a JSON number can hold: digits, sign, point, exponent mark.
const isNumberCharacter = (code: number): boolean =>
  (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2b || code === 0x2e || code === 0x65 || code === 0x45
