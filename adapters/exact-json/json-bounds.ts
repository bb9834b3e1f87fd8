/** The bounds on the shape of a JSON text, checked before it is parsed. */
export interface JsonLimits {
  /** Longest number accepted, in characters (sign, digits, point and exponent included). */
  readonly maxNumberLength: number
  /** Deepest nesting of arrays and objects accepted: `{}` is 1, `{"a":[]}` is 2. */
  readonly maxDepth: number
}

export const DEFAULT_JSON_LIMITS: JsonLimits = { maxNumberLength: 100, maxDepth: 32 }

/** What one pass over a JSON text found. */
export interface JsonScan {
  /** The first bound the text breaks, if any; when set, the rest of the scan is incomplete. */
  readonly excess: 'depth' | 'number' | undefined
  /**
   * Every number, in text order, as two entries: where its lexeme starts and ends. A lexeme of
   * digits only (an optional minus, no point, no exponent) has its start stored as `-start - 1`.
   */
  readonly numbers: ReadonlyArray<number>
  /** How many members each object has, objects in the order their `{` appears. */
  readonly memberCounts: ReadonlyArray<number>
}

/**
 * Scans a JSON text once, left to right, for the first bound it breaks: nesting deeper than
 * `maxDepth`, or a number longer than `maxNumberLength`; and, for a parser that reads the text
 * next, where its numbers are and how many members its objects have. Strings are skipped (escapes
 * included) so brackets, digits and colons inside them do not count. On a malformed text the
 * answer may be either bound or none; the parser that runs next refuses such a text anyway, and it
 * can never nest deeper than this scan counted, since the two agree on where strings start and end.
 */
export const scanJson = (text: string, { maxDepth, maxNumberLength }: JsonLimits): JsonScan => {
  const numbers: number[] = []
  const memberCounts: number[] = []
  // The index in memberCounts of each open object, -1 for each open array.
  const open: number[] = []
  let depth = 0
  let numberRun = 0
  let numberStart = -1
  let digitsOnly = true
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === BACKSLASH) i++
      else if (code === QUOTE) inString = false
      continue
    }
    if (isNumberCharacter(code)) {
      if (++numberRun > maxNumberLength) return { excess: 'number', numbers, memberCounts }
      // A number starts with a minus or a digit; a lone run of `e` is in true or false.
      if (numberRun === 1 && (code === MINUS || isDigit(code))) {
        numberStart = i
        digitsOnly = true
      } else if (!isDigit(code)) digitsOnly = false
      continue
    }
    if (numberStart !== -1) {
      numbers.push(digitsOnly ? -numberStart - 1 : numberStart, i)
      numberStart = -1
    }
    numberRun = 0
    if (code === QUOTE) inString = true
    else if (code === COLON) {
      const object = open[open.length - 1]
      if (object !== undefined && object !== -1) memberCounts[object] = (memberCounts[object] ?? 0) + 1
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > maxDepth) return { excess: 'depth', numbers, memberCounts }
      if (code === OPEN_BRACE) {
        open.push(memberCounts.length)
        memberCounts.push(0)
      } else open.push(-1)
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--
      open.pop()
    }
  }
  if (numberStart !== -1) numbers.push(digitsOnly ? -numberStart - 1 : numberStart, text.length)
  return { excess: undefined, numbers, memberCounts }
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COLON = 0x3a
const MINUS = 0x2d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d

const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39

// Every character a JSON number can hold: digits, sign, point, exponent mark.
const isNumberCharacter = (code: number): boolean =>
  isDigit(code) || code === MINUS || code === 0x2b || code === 0x2e || code === 0x65 || code === 0x45
