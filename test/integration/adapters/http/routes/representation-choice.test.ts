import { expect } from 'chai'
import fc from 'fast-check'
import { request } from 'node:http'
import { acceptEncodingMember, entityTagMember, listField } from '../../../../support/arbitraries.js'
import { startTestApp, type TestApp } from '../../../../support/http-app.js'
import { LIST_FIELD_READ_LIMIT } from '../../../../../adapters/http/context/list-members.js'
import { propertyRuns } from '../../../../support/property-runs.js'

// Which coding /openapi.json and the /docs files are sent in, and whether a 304 is, for any
// Accept-Encoding and If-None-Match a client may send, well-formed or not, up to the length the
// server's header limit lets through, held to a model written as plainly as the rules read.

// The members the service reads: those whole within the first LIST_FIELD_READ_LIMIT characters,
// trimmed. Node has trimmed the field itself, as the model does first.
const membersRead = (sent: string): ReadonlyArray<string> => {
  const field = sent.replace(/^[ \t]+|[ \t]+$/g, '')
  const members = field.slice(0, LIST_FIELD_READ_LIMIT).split(',')
  return (field.length > LIST_FIELD_READ_LIMIT ? members.slice(0, -1) : members).map((member) => member.replace(/^[ \t]+|[ \t]+$/g, ''))
}

// RFC 9110 section 12.5.3 and 12.4.2: a coding, then at most one weight, a qvalue of 0 to 1
// with at most three decimals. Any other member is ignored, as if it had not been sent.
const CODING = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:[ \t]*;[ \t]*[qQ]=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?))?$/

const modelCoding = (acceptEncoding: string): 'br' | 'gzip' | 'identity' => {
  const weights = new Map<string, number>()
  for (const member of membersRead(acceptEncoding)) {
    const match = CODING.exec(member)
    if (match?.[1] !== undefined) weights.set(match[1].toLowerCase(), match[2] === undefined ? 1 : Number(match[2]))
  }
  const weight = (coding: string): number => weights.get(coding) ?? weights.get('*') ?? 0
  const [br, gzip] = [weight('br'), weight('gzip')]
  return br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : 'identity'
}

const modelNotModified = (ifNoneMatch: string, etag: string): boolean =>
  membersRead(ifNoneMatch).some((member) => member === '*' || member === etag || member === `W/${etag}`)

type Answer = { readonly status: number; readonly headers: Record<string, string | string[] | undefined> }

const get = (url: string, headers: Record<string, string>): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }))
    })
    req.on('error', reject)
    req.end()
  })

// Room for the request line and the other headers within Node's 16 KiB, shared by the two fields.
const MAX_PADDING = 14_500

describe('the representation of /openapi.json chosen from Accept-Encoding and If-None-Match', function () {
  let app: TestApp | undefined
  const etags = new Map<string, string>()
  before(async function () {
    app = await startTestApp()
    for (const coding of ['br', 'gzip', 'identity']) {
      etags.set(coding, String((await get(document(), { 'Accept-Encoding': coding })).headers['etag']))
    }
  })
  after(async function () {
    await app?.close()
  })
  const document = () => `${app?.url ?? ''}/openapi.json`

  it('is the coding and the 304 the model gives, for any fields, long or malformed', async function () {
    this.timeout(120_000)
    const fields = listField(acceptEncodingMember, ['identity;q=0.5, ', 'x, ', ', ', ' '], MAX_PADDING).chain((accepted) =>
      fc.tuple(
        fc.constant(accepted),
        fc.oneof(
          { weight: 1, arbitrary: fc.constant(undefined) },
          { weight: 3, arbitrary: listField(entityTagMember([...etags.values()]), ['"an-old-version", ', 'W/"x",', ',,'], Math.max(0, MAX_PADDING - accepted.length)) },
        ),
      ),
    )
    await fc.assert(
      fc.asyncProperty(fields, async ([accepted, known]) => {
        const answer = await get(document(), { 'Accept-Encoding': accepted, ...(known === undefined ? {} : { 'If-None-Match': known }) })
        const coding = modelCoding(accepted)
        const etag = etags.get(coding) ?? ''
        expect(answer.headers['etag']).to.equal(etag)
        if (known !== undefined && modelNotModified(known, etag)) {
          expect(answer.status).to.equal(304)
        } else {
          expect(answer.status).to.equal(200)
          expect(answer.headers['content-encoding']).to.equal(coding === 'identity' ? undefined : coding)
        }
      }),
      { numRuns: propertyRuns(150) },
    )
  })
})
