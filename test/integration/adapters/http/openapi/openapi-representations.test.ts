import { expect } from 'chai'
import { request } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { startTestApp, type TestApp } from '../../../../support/http-app.js'

// /openapi.json is answered as the /docs files are: compressed when the client takes it, with a
// strong ETag per coding, and 304 to a client that names the ETag it holds. Read with node:http,
// which, unlike fetch, hands over the coded bytes as sent.

type Answer = { readonly status: number; readonly headers: Record<string, string | string[] | undefined>; readonly body: Buffer }

const get = (url: string, headers: Record<string, string>, method = 'GET'): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = request(url, { headers, method }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })

for (const docsPage of [true, false]) {
  describe(`GET /openapi.json, the /docs page ${docsPage ? 'on' : 'off'}: compressed, a strong ETag, 304`, function () {
    let app: TestApp | undefined
    let plain: Buffer = Buffer.alloc(0)
    before(async function () {
      app = await startTestApp({ docsPage, basePath: '/api' })
      plain = (await get(document(), { 'Accept-Encoding': 'identity' })).body
    })
    after(async function () {
      await app?.close()
    })
    const document = () => `${app?.url ?? ''}/openapi.json`

    it('sends the document as it is to a client that takes no coding, as JSON', function () {
      const parsed = JSON.parse(plain.toString('utf8')) as { openapi: string; paths: Record<string, unknown> }
      expect(parsed.openapi).to.match(/^3\.1\./)
      expect(Object.keys(parsed.paths)).to.include('/api/plants')
    })

    it('sends brotli, then gzip, as the client takes them, each decoding to the same bytes', async function () {
      const br = await get(document(), { 'Accept-Encoding': 'gzip, deflate, br' })
      expect(br.status).to.equal(200)
      expect(br.headers['content-type']).to.equal('application/json; charset=utf-8')
      expect(br.headers['content-encoding']).to.equal('br')
      expect(br.headers['vary']).to.match(/Accept-Encoding/)
      expect(br.body.length).to.be.below(plain.length / 3)
      expect(brotliDecompressSync(br.body).equals(plain)).to.equal(true)
      const gzip = await get(document(), { 'Accept-Encoding': 'gzip' })
      expect(gzip.headers['content-encoding']).to.equal('gzip')
      expect(gunzipSync(gzip.body).equals(plain)).to.equal(true)
    })

    it('answers 304 with no body to a client naming the ETag it holds, for each coding and for HEAD', async function () {
      for (const coding of ['br', 'gzip', 'identity']) {
        const first = await get(document(), { 'Accept-Encoding': coding })
        const etag = String(first.headers['etag'])
        expect(etag, coding).to.match(/^"[A-Za-z0-9_-]{27}(-br|-gzip)?"$/)
        expect(first.headers['cache-control'], coding).to.equal('no-cache')
        const again = await get(document(), { 'Accept-Encoding': coding, 'If-None-Match': etag })
        expect(again.status, coding).to.equal(304)
        expect(again.body.length, coding).to.equal(0)
        expect(again.headers['etag'], coding).to.equal(etag)
        const head = await get(document(), { 'Accept-Encoding': coding, 'If-None-Match': `"other", ${etag}` }, 'HEAD')
        expect(head.status, coding).to.equal(304)
      }
      const stale = await get(document(), { 'Accept-Encoding': 'br', 'If-None-Match': '"an-old-version"' })
      expect(stale.status).to.equal(200)
    })

    it('documents the ETag and the 304 it answers', function () {
      const parsed = JSON.parse(plain.toString('utf8')) as {
        paths: Record<string, { get: { responses: Record<string, { headers?: Record<string, unknown> }> } }>
      }
      const { responses } = parsed.paths['/openapi.json']?.get ?? { responses: {} }
      expect(responses['200']?.headers).to.have.property('ETag')
      expect(responses).to.have.property('304')
    })
  })
}

describe('GET /openapi.json through fetch and the traffic check', function () {
  let app: TestApp | undefined
  before(async function () {
    app = await startTestApp()
  })
  after(async function () {
    await app?.close()
  })

  it('answers 304 to the ETag fetch was given, as the document says it does', async function () {
    const first = await fetch(`${app?.url ?? ''}/openapi.json`)
    expect(first.status).to.equal(200)
    const etag = first.headers.get('etag') ?? ''
    await first.arrayBuffer()
    const again = await fetch(`${app?.url ?? ''}/openapi.json`, { headers: { 'If-None-Match': etag } })
    expect(again.status).to.equal(304)
  })
})
