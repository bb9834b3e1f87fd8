import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { request } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { startTestApp, type TestApp } from '../../../../support/http-app.js'

// The page's files are served compressed, with strong ETags and 304s, so a client that already has
// them costs a few headers, and one that has not costs a third of the bytes; and the page can be
// switched off. Read with node:http, which, unlike fetch, hands over the coded bytes as sent.

const BUNDLE = readFileSync(createRequire(import.meta.url).resolve('swagger-ui-dist/swagger-ui-bundle.js'))

type Answer = { readonly status: number; readonly headers: Record<string, string | string[] | undefined>; readonly body: Buffer }

const get = (url: string, headers: Record<string, string>): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })

describe('the /docs files: compressed once, ETags, 304s', function () {
  let app: TestApp | undefined
  before(async function () {
    app = await startTestApp()
  })
  after(async function () {
    await app?.close()
  })
  const bundle = () => `${app?.url ?? ''}/docs/swagger-ui-bundle.js`

  it('sends the bundle as brotli to a client that takes it, a quarter of its size, exactly', async function () {
    const answer = await get(bundle(), { 'Accept-Encoding': 'gzip, deflate, br' })
    expect(answer.status).to.equal(200)
    expect(answer.headers['content-encoding']).to.equal('br')
    expect(answer.headers['vary']).to.match(/Accept-Encoding/)
    expect(answer.body.length).to.be.below(BUNDLE.length / 3)
    expect(brotliDecompressSync(answer.body).equals(BUNDLE)).to.equal(true)
  })

  it('sends gzip to a client that takes gzip only, and the file as it is to one that takes neither', async function () {
    const gzip = await get(bundle(), { 'Accept-Encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).to.equal('gzip')
    expect(gunzipSync(gzip.body).equals(BUNDLE)).to.equal(true)
    const plain = await get(bundle(), { 'Accept-Encoding': 'identity' })
    expect(plain.headers['content-encoding']).to.equal(undefined)
    expect(plain.body.equals(BUNDLE)).to.equal(true)
    const refused = await get(bundle(), { 'Accept-Encoding': 'br;q=0, gzip;q=0' })
    expect(refused.headers['content-encoding']).to.equal(undefined)
  })

  it("follows the client's weights, not the order of its list, br when it weights both alike", async function () {
    const weighted = [
      ['br;q=0.5, gzip;q=0.9', 'gzip'],
      ['gzip;q=0.2, br;q=0.8', 'br'],
      ['gzip, br', 'br'],
      ['*;q=0.5, gzip', 'gzip'],
      ['br;q=0, *', 'gzip'],
      ['*', 'br'],
    ] as const
    for (const [acceptEncoding, coding] of weighted) {
      const answer = await get(bundle(), { 'Accept-Encoding': acceptEncoding })
      expect(answer.headers['content-encoding'], acceptEncoding).to.equal(coding)
      expect(answer.headers['etag'], acceptEncoding).to.match(new RegExp(`-${coding}"$`))
    }
  })

  it('ignores a member whose weight is not a qvalue, as if the client had not sent it', async function () {
    const malformed = [
      ['br;q=NaN, gzip;q=0.1', 'gzip'],
      ['br;q=2, gzip;q=0.1', 'gzip'],
      ['br;q=0.1234, gzip;q=0.1', 'gzip'],
      ['br;q=-1, gzip;q=0.1', 'gzip'],
      ['br;q=1.5, gzip;q=0.1', 'gzip'],
      ['br;q=, gzip;q=0.1', 'gzip'],
      ['br;q=0.5;q=1, gzip;q=0.1', 'gzip'],
      ['gzip;q=0.9, br;q=0.5x', 'gzip'],
      ['*;q=0.5, br;q=abc, gzip;q=0.4', 'br'],
    ] as const
    for (const [acceptEncoding, coding] of malformed) {
      const answer = await get(bundle(), { 'Accept-Encoding': acceptEncoding })
      expect(answer.headers['content-encoding'], acceptEncoding).to.equal(coding)
    }
    const none = await get(bundle(), { 'Accept-Encoding': 'br;q=NaN, gzip;q=1.1' })
    expect(none.headers['content-encoding']).to.equal(undefined)
  })

  it('answers 304 with no body to a client naming the ETag it holds, for each coding, or `*`', async function () {
    for (const coding of ['br', 'gzip', 'identity']) {
      const first = await get(bundle(), { 'Accept-Encoding': coding })
      const etag = String(first.headers['etag'])
      expect(etag, coding).to.match(/^"[A-Za-z0-9_-]{27}(-br|-gzip)?"$/)
      const again = await get(bundle(), { 'Accept-Encoding': coding, 'If-None-Match': etag })
      expect(again.status, coding).to.equal(304)
      expect(again.body.length).to.equal(0)
    }
    const stale = await get(bundle(), { 'Accept-Encoding': 'br', 'If-None-Match': '"an-old-version"' })
    expect(stale.status).to.equal(200)
    const any = await get(bundle(), { 'Accept-Encoding': 'br', 'If-None-Match': '"an-old-version", *' })
    expect(any.status).to.equal(304)
  })

  it('answers 304 for the page itself, through fetch and the traffic check', async function () {
    const first = await fetch(`${app?.url ?? ''}/docs`)
    await first.arrayBuffer()
    const etag = first.headers.get('etag') ?? ''
    const again = await fetch(`${app?.url ?? ''}/docs`, { headers: { 'If-None-Match': etag } })
    expect(again.status).to.equal(304)
    const head = await fetch(`${app?.url ?? ''}/docs`, { method: 'HEAD', headers: { 'If-None-Match': etag } })
    expect(head.status).to.equal(304)
  })
})

describe('/docs switched off', function () {
  it('answers 404 for the page and its files, and /openapi.json lists no /docs', async function () {
    const app = await startTestApp({ docsPage: false })
    try {
      for (const path of ['/docs', '/docs/swagger-ui-bundle.js', '/docs/docs.js']) {
        const response = await fetch(`${app.url}${path}`)
        await response.arrayBuffer()
        expect(response.status, path).to.equal(404)
      }
      const document = (await (await fetch(`${app.url}/openapi.json`)).json()) as { paths: Record<string, unknown> }
      expect(Object.keys(document.paths)).not.to.include('/docs')
    } finally {
      await app.close()
    }
  })
})
