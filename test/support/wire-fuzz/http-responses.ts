// A strict reader of the HTTP/1.1 responses a server sent on one connection (RFC 9112): the
// status line, header fields, and the message's length told by Content-Length, chunked
// transfer coding, or the close of a connection the answer says it closes. It says what is
// wrong rather than guessing, so a fuzzer can tell a malformed answer from one it stopped
// reading half-way.

export interface HttpResponse {
  readonly status: number
  /** Field names lower-cased, in the order sent. */
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: Buffer
}

export interface ResponseStream {
  /** Every whole response, interim (1xx) ones included, in order. */
  readonly responses: ReadonlyArray<HttpResponse>
  /** What is malformed; reading stops at the first such thing. */
  readonly problems: ReadonlyArray<string>
  /** Bytes after the last whole response that may be the start of one (the rest never came). */
  readonly unfinished: number
}

/** The value of a header, the values of repeated fields joined by commas; undefined when absent. */
export const headerOf = (response: HttpResponse, name: string): string | undefined => {
  const values = response.headers.filter(([field]) => field === name).map(([, value]) => value)
  return values.length === 0 ? undefined : values.join(', ')
}

// A header section longer than this is not an answer of this service; it is a runaway.
const MAX_HEAD_BYTES = 64 * 1024

const STATUS_LINE = /^HTTP\/1\.1 ([1-9]\d\d) [\t\x20-\x7e\x80-\xff]*$/
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
// Field values: visible characters, spaces and tabs, obs-text; no CR, LF or NUL.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

type Step =
  | { readonly _tag: 'Whole'; readonly response: HttpResponse; readonly next: number }
  | { readonly _tag: 'Unfinished' }
  | { readonly _tag: 'Malformed'; readonly problem: string }

/**
 * Reads every response in `bytes`, the bytes a server sent on one connection, in order;
 * `closedByServer` says the server closed the connection after them, which ends an answer
 * delimited by the close. `toHead` says every request on the connection was a HEAD: no answer
 * has a body, whatever length its fields announce (RFC 9110 section 9.3.2), but a refusal that
 * closes the connection, which may be of a request whose method was never read.
 */
export const readResponses = (bytes: Buffer, closedByServer: boolean, toHead = false): ResponseStream => {
  const responses: HttpResponse[] = []
  let offset = 0
  while (offset < bytes.length) {
    const last = responses.at(-1)
    if (last !== undefined && last.status >= 200 && /\bclose\b/i.test(headerOf(last, 'connection') ?? '')) {
      return { responses, problems: [`${bytes.length - offset} bytes after a response that said Connection: close`], unfinished: 0 }
    }
    const step = readOne(bytes, offset, closedByServer, toHead)
    if (step._tag === 'Unfinished') return { responses, problems: [], unfinished: bytes.length - offset }
    if (step._tag === 'Malformed') return { responses, problems: [`response ${responses.length + 1}: ${step.problem}`], unfinished: 0 }
    responses.push(step.response)
    offset = step.next
  }
  return { responses, problems: [], unfinished: 0 }
}

const readOne = (bytes: Buffer, start: number, closedByServer: boolean, toHead: boolean): Step => {
  const headEnd = bytes.indexOf('\r\n\r\n', start, 'latin1')
  if (headEnd === -1) {
    const partial = bytes.subarray(start, start + MAX_HEAD_BYTES + 1).toString('latin1')
    if (partial.length > MAX_HEAD_BYTES) return { _tag: 'Malformed', problem: `no end of headers within ${MAX_HEAD_BYTES} bytes` }
    const prefix = 'HTTP/1.1 '
    const looksLikeOne = partial.length < prefix.length ? prefix.startsWith(partial) : partial.startsWith(prefix)
    return looksLikeOne ? { _tag: 'Unfinished' } : { _tag: 'Malformed', problem: `not a status line: ${JSON.stringify(partial.slice(0, 60))}` }
  }
  const [statusLine = '', ...lines] = bytes.subarray(start, headEnd).toString('latin1').split('\r\n')
  const status = STATUS_LINE.exec(statusLine)?.[1]
  if (status === undefined) return { _tag: 'Malformed', problem: `not a status line: ${JSON.stringify(statusLine.slice(0, 60))}` }
  const headers: Array<readonly [string, string]> = []
  for (const line of lines) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon)
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '')
    if (colon <= 0 || !FIELD_NAME.test(name) || !FIELD_VALUE.test(value)) {
      return { _tag: 'Malformed', problem: `not a header field: ${JSON.stringify(line.slice(0, 60))}` }
    }
    headers.push([name.toLowerCase(), value])
  }
  const response = { status: Number(status), headers, body: Buffer.alloc(0) }
  // A request the parser refused (headers too large, a bad field) is answered before its method is
  // known, with an Error document and the connection closed: that body is framed as for any method.
  const refusedUnread = response.status >= 400 && /\bclose\b/i.test(headerOf(response, 'connection') ?? '')
  if (toHead && response.status >= 200 && !refusedUnread) {
    const lengths = headers.filter(([name]) => name === 'content-length').map(([, value]) => value)
    if (lengths.some((value) => !/^\d{1,15}$/.test(value))) return { _tag: 'Malformed', problem: `Content-Length ${JSON.stringify(lengths)}` }
    return { _tag: 'Whole', response, next: headEnd + 4 }
  }
  return readBody(bytes, headEnd + 4, response, closedByServer)
}

const readBody = (bytes: Buffer, start: number, head: HttpResponse, closedByServer: boolean): Step => {
  const { status } = head
  const lengths = head.headers.filter(([name]) => name === 'content-length').map(([, value]) => value)
  const codings = headerOf(head, 'transfer-encoding')
  if (status < 200 || status === 204 || status === 304) {
    // RFC 9110: no body; a 1xx or 204 has no Content-Length either.
    if (codings !== undefined) return { _tag: 'Malformed', problem: `a ${status} with Transfer-Encoding` }
    if (status !== 304 && lengths.length > 0) return { _tag: 'Malformed', problem: `a ${status} with Content-Length` }
    return { _tag: 'Whole', response: head, next: start }
  }
  if (codings !== undefined) {
    if (lengths.length > 0) return { _tag: 'Malformed', problem: 'both Transfer-Encoding and Content-Length' }
    if (!/(^|,)\s*chunked\s*$/i.test(codings)) return { _tag: 'Malformed', problem: `Transfer-Encoding not ending in chunked: ${codings}` }
    return readChunked(bytes, start, head)
  }
  if (lengths.length === 0) {
    // Delimited by the connection's close (RFC 9112 section 6.3): what Node sends a client of HTTP/1.0,
    // which knows no chunked coding. Then the answer must say the connection ends.
    if (!/\bclose\b/i.test(headerOf(head, 'connection') ?? '')) {
      return { _tag: 'Malformed', problem: `a ${status} with neither Content-Length, chunked coding nor Connection: close` }
    }
    return closedByServer ? { _tag: 'Whole', response: { ...head, body: bytes.subarray(start) }, next: bytes.length } : { _tag: 'Unfinished' }
  }
  const distinct = new Set(lengths.flatMap((value) => value.split(',').map((part) => part.trim())))
  const [length] = [...distinct]
  if (distinct.size !== 1 || length === undefined || !/^\d{1,15}$/.test(length)) {
    return { _tag: 'Malformed', problem: `Content-Length ${JSON.stringify(lengths)}` }
  }
  const end = start + Number(length)
  if (end > bytes.length) return { _tag: 'Unfinished' }
  return { _tag: 'Whole', response: { ...head, body: bytes.subarray(start, end) }, next: end }
}

const CHUNK_SIZE_LINE = /^([0-9A-Fa-f]{1,12})[ \t]*(;.*)?$/

const readChunked = (bytes: Buffer, start: number, head: HttpResponse): Step => {
  const chunks: Buffer[] = []
  let offset = start
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', offset, 'latin1')
    if (lineEnd === -1) return bytes.length - offset > 1024 ? { _tag: 'Malformed', problem: 'a chunk size line without end' } : { _tag: 'Unfinished' }
    const size = CHUNK_SIZE_LINE.exec(bytes.subarray(offset, lineEnd).toString('latin1'))?.[1]
    if (size === undefined) return { _tag: 'Malformed', problem: 'a malformed chunk size line' }
    const length = parseInt(size, 16)
    if (length === 0) {
      // Trailer fields, then the empty line.
      let trailer = lineEnd + 2
      for (;;) {
        const end = bytes.indexOf('\r\n', trailer, 'latin1')
        if (end === -1) return { _tag: 'Unfinished' }
        if (end === trailer) return { _tag: 'Whole', response: { ...head, body: Buffer.concat(chunks) }, next: end + 2 }
        trailer = end + 2
      }
    }
    const dataEnd = lineEnd + 2 + length
    if (dataEnd + 2 > bytes.length) return { _tag: 'Unfinished' }
    if (bytes.subarray(dataEnd, dataEnd + 2).toString('latin1') !== '\r\n') return { _tag: 'Malformed', problem: 'a chunk not followed by CRLF' }
    chunks.push(bytes.subarray(lineEnd + 2, dataEnd))
    offset = dataEnd + 2
  }
}
