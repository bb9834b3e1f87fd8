import * as E from 'fp-ts/lib/Either.js'
import type * as LosslessJson from 'lossless-json'
import { loadPeers } from '../peers/index.js'

const { parse } = loadPeers<{ readonly 'lossless-json': typeof LosslessJson }>('plant-store/json')['lossless-json']

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

// Each limit a whole number of 1 or more, or a RangeError naming the one that is not: a limit of
// NaN (or a string, from JavaScript) would bound nothing, silently.
const checkJsonLimits = (limits: JsonLimits): void => {
  for (const name of ['maxNumberLength', 'maxDepth'] as const) {
    const limit: unknown = limits[name]
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`JsonLimits: ${name} must be a whole number of 1 or more, not ${String(limit)}`)
    }
  }
}

/**
 * Parses a JSON text, given as its UTF-8 bytes or as a string, keeping every integer of up to 20
 * digits exact (every int64 among them): a number whose exact value is such an integer becomes a
 * `bigint` (so 9007199254740993 stays itself, and 1.0 and 1e2 are the integers 1 and 100); a
 * larger integer, which no int64 field can hold, is a `number` as JSON.parse reads it, never
 * expanded digit by digit; any other number becomes a `number`, and NaN where the nearest double
 * would be an integer (1.0000000000000000001), so no value claims to be an integer the text is
 * not. Bytes that are not UTF-8 are refused (RFC 8259 section 8.1), as are repeated keys, whatever
 * their values, which JSON.parse would settle silently by keeping the last. A text nested deeper or
 * holding a longer number than the limits allow is refused after one linear scan, before any
 * parsing: the work per byte stays constant whatever the text. A refusal is a sentence about "the
 * request body", as the HTTP adapter answers with it. Limits that are not whole numbers of 1 or
 * more are a mistake of the caller's, thrown as a RangeError.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { parseExactJson } from 'plant-store/json'
 *
 * const parsed = parseExactJson('{"id":9007199254740993,"name":"Fern"}')
 * if (E.isRight(parsed)) console.log(parsed.right) // { id: 9007199254740993n, name: 'Fern' }
 * ```
 */
export const parseExactJson = (json: Uint8Array | string, limits: JsonLimits = DEFAULT_JSON_LIMITS): E.Either<string, unknown> =>
  exactJsonParser(limits)(json)

/**
 * `parseExactJson` within `limits`, checked once, here (a RangeError names a limit that is not a
 * whole number of 1 or more): for a caller that parses many texts within the same limits.
 *
 * @example
 * ```ts
 * import { DEFAULT_JSON_LIMITS, exactJsonParser } from 'plant-store/json'
 *
 * const parse = exactJsonParser({ ...DEFAULT_JSON_LIMITS, maxDepth: 8 })
 * console.log(parse('[[[[[[[[[1]]]]]]]]]')) // left: nested deeper than 8
 * ```
 */
export const exactJsonParser = (limits: JsonLimits = DEFAULT_JSON_LIMITS): ((json: Uint8Array | string) => E.Either<string, unknown>) => {
  checkJsonLimits(limits)
  return (json) => parseWithin(json, limits)
}

const parseWithin = (json: Uint8Array | string, limits: JsonLimits): E.Either<string, unknown> => {
  let text: string
  if (typeof json === 'string') text = json
  else {
    try {
      text = utf8.decode(json)
    } catch {
      return E.left('the request body is not valid UTF-8')
    }
  }
  const scan = scanJson(text, limits)
  if (scan.excess === 'depth') return E.left(`the request body is nested deeper than ${limits.maxDepth} levels`)
  if (scan.excess === 'number') return E.left(`the request body holds a number longer than ${limits.maxNumberLength} characters`)
  const fast = parseFast(text, scan)
  if (fast !== NOT_FAST) return E.right(fast)
  let value: unknown
  try {
    value = parse(text, null, parseNumber)
  } catch (error) {
    return E.left(isBlank(text) ? EMPTY : describeSyntaxError(error))
  }
  // lossless-json settles a key repeated with values it finds equal by keeping one; its equality
  // is not exact (1e400 and 2e400 are both Infinity) and takes [] for {}. Every repetition is
  // refused instead: fewer members parsed than the scan counted means a key came twice.
  return membersIn(value) < scan.memberCounts.reduce((sum, count) => sum + count, 0) ? E.left(REPEATED_KEY) : E.right(value)
}

const REPEATED_KEY = 'the request body repeats a key within one object; each key may appear once'

// How many members the objects of a parsed value hold, all levels counted.
const membersIn = (value: unknown): number => {
  if (typeof value !== 'object' || value === null) return 0
  const children = Array.isArray(value) ? value : Object.values(value)
  return children.reduce((sum: number, child: unknown) => sum + membersIn(child), Array.isArray(value) ? 0 : children.length)
}

/**
 * The same value as the exact parser gives, from JSON.parse, which is several times faster,
 * or NOT_FAST for a text it cannot vouch for: one JSON.parse refuses (the exact parser then
 * words the refusal), or one where an object repeats a key (JSON.parse would keep the last
 * silently; the exact parser refuses different values), has a key that is an array index (the
 * object would list it first, out of text order), or a `__proto__` key (which assignment would
 * not set). Otherwise the walk meets the numbers in text order, and each is replaced by the
 * exact value of its lexeme, as the scan located it.
 */
const parseFast = (text: string, scan: JsonScan): unknown => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return NOT_FAST
  }
  const walk = { numbers: 0, objects: 0 }
  const exact = exactValue(value, text, scan, walk)
  return exact !== NOT_FAST && walk.numbers === scan.numbers.length && walk.objects === scan.memberCounts.length
    ? exact
    : NOT_FAST
}

const NOT_FAST: unique symbol = Symbol('not fast')

const exactValue = (value: unknown, text: string, scan: JsonScan, walk: { numbers: number; objects: number }): unknown => {
  if (typeof value === 'number') {
    const start = scan.numbers[walk.numbers] ?? 0
    const end = scan.numbers[walk.numbers + 1] ?? 0
    walk.numbers += 2
    if (start >= 0) return parseNumber(text.slice(start, end))
    // Digits only: an integer, which JSON.parse read exactly when it is a safe one, and which
    // BigInt reads exactly from the text when it has no more digits than an int64.
    if (Number.isSafeInteger(value)) return BigInt(value)
    return end + start + 1 <= INT64_DIGITS ? BigInt(text.slice(-start - 1, end)) : parseNumber(text.slice(-start - 1, end))
  }
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = exactValue(value[i], text, scan, walk)
      if (item === NOT_FAST) return NOT_FAST
      value[i] = item
    }
    return value
  }
  const object = value as Record<string, unknown>
  const keys = Object.keys(object)
  if (keys.length !== scan.memberCounts[walk.objects++]) return NOT_FAST
  for (const key of keys) {
    if (isDigit(key.charCodeAt(0)) || key === '__proto__') return NOT_FAST
    const member = exactValue(object[key], text, scan, walk)
    if (member === NOT_FAST) return NOT_FAST
    object[key] = member
  }
  return object
}

// The longest int64 written in digits: -9223372036854775808.
const INT64_DIGITS = 20

// fatal: a byte sequence that is not UTF-8 throws instead of turning into U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true })

// Beyond this many digits an integer is outside int64 (19 digits at most), so its exact value
// serves no field: it is kept as a double rather than expanded, and 64 KiB of 1e398 cost no more
// than other numbers (each expanded exactly, they cost 15-30 ms a body).
const MAX_INTEGER_DIGITS = 20

const isDigitZero = (text: string, index: number): boolean => text.charCodeAt(index) === 0x30

/**
 * The value of a lexeme the JSON grammar accepted (`-?int(.frac)?([eE][+-]?digits)?`), read with
 * index loops only: each character is looked at a bounded number of times, never backtracked over.
 */
const parseNumber = (lexeme: string): bigint | number => {
  const negative = lexeme.charCodeAt(0) === 0x2d
  const exponentAt = lexeme.search(/[eE]/)
  const mantissa = lexeme.slice(negative ? 1 : 0, exponentAt === -1 ? lexeme.length : exponentAt)
  const point = mantissa.indexOf('.')
  const fractionLength = point === -1 ? 0 : mantissa.length - point - 1
  const digits = point === -1 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1)
  let first = 0
  while (first < digits.length && isDigitZero(digits, first)) first++
  let end = digits.length
  while (end > first && isDigitZero(digits, end - 1)) end--
  if (first === end) return 0n
  // The exponent has at most the number's length in digits, so a double holds it exactly enough:
  // any exponent a double would round is far beyond MAX_INTEGER_DIGITS either way.
  const exponent = exponentAt === -1 ? 0 : Number(lexeme.slice(exponentAt + 1))
  const scale = exponent - fractionLength + (digits.length - end)
  if (scale < 0) return fraction(lexeme)
  if (end - first + scale > MAX_INTEGER_DIGITS) return Number(lexeme)
  const significant = BigInt(digits.slice(first, end))
  return (negative ? -significant : significant) * 10n ** BigInt(scale)
}

// A number that is not an integer, as a double. Where the double would be integral (the text
// 1.0000000000000000001 rounds to 1), it would claim an integer value the text does not have, and
// a reader could not tell it from an integer: NaN says "a number, not an integer" without that lie.
const fraction = (lexeme: string): number => {
  const value = Number(lexeme)
  return Number.isInteger(value) ? Number.NaN : value
}

// No text at all is the commonest malformed body (a client that forgot to send one): said as
// such rather than as a syntax error at its first character.
const EMPTY = 'the request body is empty'

// JSON's whitespace: space, tab, line feed, carriage return (RFC 8259 section 2).
const isBlank = (text: string): boolean => /^[ \t\n\r]*$/.test(text)

const describeSyntaxError = (error: unknown): string => {
  const position = error instanceof Error ? /position (\d+)/.exec(error.message)?.[1] : undefined
  const duplicate = error instanceof Error ? /^Duplicate key '(.*)' encountered/s.exec(error.message) : null
  if (duplicate?.[1] !== undefined) {
    return `the request body repeats the key ${JSON.stringify(truncate(duplicate[1]))}; each key may appear once`
  }
  return position === undefined
    ? 'the request body is not well-formed JSON'
    : `the request body is not well-formed JSON (at character ${position})`
}

// Keys come from the client; a message quotes no more of one than a person needs to find it.
const truncate = (key: string): string => (key.length <= 40 ? key : `${key.slice(0, 40)}…`)
