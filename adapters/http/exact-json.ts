import * as E from 'fp-ts/lib/Either.js'
import { parse } from 'lossless-json'

/**
 * Parses a JSON text from its UTF-8 bytes, keeping every integer exact: a number whose exact value
 * is an integer becomes a `bigint` (so 9007199254740993 stays itself, and 1.0 and 1e2 are the
 * integers 1 and 100); any other number becomes a `number`. Bytes that are not UTF-8 are refused
 * (RFC 8259 section 8.1), as are duplicate keys with different values, which JSON.parse would
 * settle silently by keeping the last.
 */
export const parseExactJson = (bytes: Uint8Array): E.Either<string, unknown> => {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return E.left('the request body is not valid UTF-8')
  }
  try {
    return E.right(parse(text, null, parseNumber))
  } catch (error) {
    return E.left(describeSyntaxError(error))
  }
}

// fatal: a byte sequence that is not UTF-8 throws instead of turning into U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true })

const plainInteger = /^-?\d+$/
const decimal = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/

// Beyond this many digits a number is far outside int64; it is kept as a double rather than
// expanded, so a body like 1e999999999 cannot make the parser build a billion-digit bigint.
const MAX_INTEGER_DIGITS = 400

const parseNumber = (lexeme: string): bigint | number => {
  if (plainInteger.test(lexeme)) {
    return lexeme.length <= MAX_INTEGER_DIGITS ? BigInt(lexeme) : Number(lexeme)
  }
  const parts = decimal.exec(lexeme)
  if (parts === null) return Number(lexeme)
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = parts
  const digits = (whole + fraction).replace(/^0+(?=\d)/, '')
  const significant = digits.replace(/0+$/, '')
  const scale = BigInt(exponentText) - BigInt(fraction.length) + BigInt(digits.length - significant.length)
  if (/^0*$/.test(digits)) return 0n
  if (scale < 0n) return Number(lexeme)
  if (BigInt(significant.length) + scale > BigInt(MAX_INTEGER_DIGITS)) return Number(lexeme)
  return BigInt(sign + significant) * 10n ** scale
}

const describeSyntaxError = (error: unknown): string => {
  // The parser recurses: a document nested thousands deep runs out of stack, not out of grammar.
  if (error instanceof RangeError) return 'the request body is nested too deeply'
  const position = error instanceof Error ? /position (\d+)/.exec(error.message)?.[1] : undefined
  const duplicate = error instanceof Error ? /^Duplicate key '(.*)' encountered/s.exec(error.message) : null
  if (duplicate?.[1] !== undefined) {
    return `the request body repeats the key ${JSON.stringify(truncate(duplicate[1]))} with different values`
  }
  return position === undefined
    ? 'the request body is not well-formed JSON'
    : `the request body is not well-formed JSON (at character ${position})`
}

// Keys come from the client; a message quotes no more of one than a person needs to find it.
const truncate = (key: string): string => (key.length <= 40 ? key : `${key.slice(0, 40)}…`)
