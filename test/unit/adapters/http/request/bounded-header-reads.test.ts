import { expect } from 'chai'
import type { IncomingMessage } from 'node:http'
import * as E from 'fp-ts/lib/Either.js'
import type { DecodeQueue } from '../../../../../adapters/http/body/decode-queue.js'
import { makeJsonBodyReader } from '../../../../../adapters/http/body/json-body.js'
import { DEFAULT_JSON_LIMITS } from '../../../../../adapters/http/index.js'
import { readRequestBytes } from '../../../../../adapters/http/body/request-bytes.js'
import { expectationFailed, malformedRequest } from '../../../../../adapters/http/errors/problems.js'
import { readRequestHead } from '../../../../../adapters/http/context/request-head.js'
import { represent, serveRepresentations } from '../../../../../adapters/http/routes/fixed-representations.js'
import { LIST_FIELD_READ_LIMIT } from '../../../../../adapters/http/context/list-members.js'

// Every header the service reads costs work bounded whatever its length: checked by structure,
// not by a clock. Each header is handed over as a value that notes every read of it; a read of a
// character past the bound, or any operation on the whole value (a conversion, a split, a
// regular expression, a case change), is a failure, even when its answer would be right.

// As long as Node's 16 KiB of headers lets one field be.
const LONG = 15_000

interface Guarded {
  readonly value: string
  readonly misuses: ReadonlyArray<string>
}

const guarded = (text: string, bound: number): Guarded => {
  const misuses: string[] = []
  const within = (end: number | undefined, what: string): void => {
    if (end === undefined || end > bound) misuses.push(what)
  }
  const proxy = new Proxy(Object(text) as object, {
    get: (_target, key) => {
      if (key === 'length') return text.length
      if (key === 'charCodeAt') {
        return (index: number) => {
          within(index + 1, `charCodeAt(${index})`)
          return text.charCodeAt(index)
        }
      }
      if (key === 'slice') {
        return (start: number, end?: number) => {
          within(end, `slice(${start}, ${String(end)})`)
          return text.slice(start, end)
        }
      }
      misuses.push(String(key))
      const property: unknown = Reflect.get(Object(text) as object, key)
      return typeof property === 'function' ? (property as (...args: unknown[]) => unknown).bind(text) : property
    },
  })
  return { value: proxy as unknown as string, misuses }
}

const padded = (filler: string, tail: string): string => `${filler.repeat(Math.ceil(LONG / filler.length))}${tail}`

const answerTo = (fields: Readonly<Record<string, string>>) => {
  const file = represent('text/plain', Buffer.from('a fixed body'), 'no-cache')
  const answer = serveRepresentations('/file', file)({ head: { acceptEncoding: fields['accept-encoding'], ifNoneMatch: fields['if-none-match'] } })
  return { status: answer.status, headers: new Map(Object.entries(answer.headers).map(([field, text]) => [field.toLowerCase(), text])), etag: file.etag }
}

describe('headers read in bounded work, whatever their length', function () {
  it(`reads Accept-Encoding no further than its first ${LIST_FIELD_READ_LIMIT} characters, never whole`, async function () {
    for (const [sent, coding] of [
      [padded('x;q=0.5, ', 'br'), undefined],
      [padded(' , ', 'gzip'), undefined],
      [`gzip;q=0.5, ${padded('x, ', 'br')}`, 'gzip'],
      [`br;q=0.1,gzip;q=0.2,${' '.repeat(LONG)}`, 'gzip'],
      [`br;q=0.1,gzip;q=0.2${' '.repeat(LONG)}`, 'br'],
    ] as const) {
      const header = guarded(sent, LIST_FIELD_READ_LIMIT)
      const answer = answerTo({ 'accept-encoding': header.value })
      expect(header.misuses, sent.slice(0, 30)).to.deep.equal([])
      expect(answer.headers.get('content-encoding'), sent.slice(0, 30)).to.equal(coding)
    }
  })

  it(`reads If-None-Match no further than its first ${LIST_FIELD_READ_LIMIT} characters, never whole`, async function () {
    const plain = answerTo({})
    const etag = `"${plain.etag}"`
    for (const [sent, status] of [
      [padded('"an-old-version", ', etag), 200],
      [`${etag}, ${padded('"x", ', '"y"')}`, 304],
      [`"x", *,${' '.repeat(LONG)}`, 304],
      [`"x", *${' '.repeat(LONG)}`, 200],
    ] as const) {
      const header = guarded(sent, LIST_FIELD_READ_LIMIT)
      const answer = answerTo({ 'accept-encoding': 'identity', 'if-none-match': header.value })
      expect(header.misuses, sent.slice(0, 30)).to.deep.equal([])
      expect(answer.status, sent.slice(0, 30)).to.equal(status)
    }
  })

  const request = (headers: Readonly<Record<string, string>>) =>
    ({
      httpVersionMajor: 1,
      httpVersionMinor: 1,
      url: '/healthz',
      headers,
      rawHeaders: Object.entries(headers).flat(),
    }) as unknown as IncomingMessage

  it('refuses a long Expect with 417 without reading it whole', function () {
    const expectation = guarded(padded('100-continue, ', '100-continue'), LIST_FIELD_READ_LIMIT)
    expect(readRequestHead(request({ host: 'plants.test', expect: expectation.value })).refusal).to.equal(expectationFailed)
    expect(expectation.misuses).to.deep.equal([])
  })

  it('refuses a long Host with 400 without reading it whole', function () {
    const host = guarded(padded('a', ''), LIST_FIELD_READ_LIMIT)
    expect(readRequestHead(request({ host: host.value })).refusal).to.equal(malformedRequest)
    expect(host.misuses).to.deep.equal([])
  })

  it('refuses a long Content-Type with 415 without reading it whole', async function () {
    const type = guarded(padded('application/json; a=b', ''), LIST_FIELD_READ_LIMIT)
    const readJsonBody = makeJsonBodyReader(1024, DEFAULT_JSON_LIMITS, undefined as unknown as DecodeQueue)
    const req = request({ 'content-type': type.value })
    const read = await readJsonBody(req, readRequestHead(req), undefined)()
    expect(type.misuses).to.deep.equal([])
    expect(E.isLeft(read) && read.left._tag).to.equal('UnsupportedMediaType')
  })

  it('refuses a long Content-Encoding as unsupported (415) without reading it whole', async function () {
    const coding = guarded(padded('gzip, ', 'gzip'), LIST_FIELD_READ_LIMIT)
    const req = Object.assign(request({ 'content-encoding': coding.value, 'content-length': '10' }), { readable: true })
    const read = await readRequestBytes(req, readRequestHead(req), 1024, undefined as unknown as DecodeQueue)
    expect(coding.misuses).to.deep.equal([])
    expect(E.isLeft(read) && read.left._tag).to.equal('UnsupportedMediaType')
  })
})
