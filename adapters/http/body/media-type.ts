/** A media type as a Content-Type field gives it: `type/subtype` and its parameters, in order. */
export interface MediaType {
  /** `type/subtype`, lower-cased: both are case-insensitive. */
  readonly type: string
  /** Each parameter's name, lower-cased, and its value, unquoted; a name given twice is here twice. */
  readonly parameters: ReadonlyArray<readonly [name: string, value: string]>
}

/**
 * The media type of a Content-Type field, read strictly as RFC 9110 section 8.3.1 writes one:
 * `type "/" subtype *( OWS ";" OWS [ name "=" value ] )`, each a token, a value a token or a
 * quoted string, with no whitespace around "="; undefined for a field that is not one. Nothing
 * is guessed: a proxy in front that reads a malformed field otherwise would judge the body by
 * another type than the one read here.
 */
export const parseMediaType = (field: string): MediaType | undefined => {
  const head = TYPE.exec(field)
  if (head === null) return undefined
  const parameters: Array<readonly [string, string]> = []
  let at = head[0].length
  for (;;) {
    PARAMETER.lastIndex = at
    const step = PARAMETER.exec(field)
    if (step === null) break
    at = PARAMETER.lastIndex
    const [, name, value] = step
    if (name !== undefined && value !== undefined) parameters.push([name.toLowerCase(), unquoted(value)])
  }
  WHITESPACE_TO_END.lastIndex = at
  if (!WHITESPACE_TO_END.test(field)) return undefined
  return { type: `${(head[1] as string).toLowerCase()}/${(head[2] as string).toLowerCase()}`, parameters }
}

// RFC 9110 section 5.6.2's tchar, and section 5.6.4's quoted string (obs-text included: Node
// hands a field's bytes over as latin1 characters).
const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+"
const QUOTED = '"(?:[\\t \\x21\\x23-\\x5B\\x5D-\\x7E\\x80-\\xFF]|\\\\[\\t \\x21-\\x7E\\x80-\\xFF])*"'

const TYPE = new RegExp(`^[ \\t]*(${TOKEN})/(${TOKEN})`)
const PARAMETER = new RegExp(`[ \\t]*;[ \\t]*(?:(${TOKEN})=(${TOKEN}|${QUOTED}))?`, 'y')
const WHITESPACE_TO_END = /[ \t]*$/y

const unquoted = (value: string): string => (value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/gs, '$1') : value)
