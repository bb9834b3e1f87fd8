import { expect } from 'chai'
import { once } from 'node:events'
import { createServer, request, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BrowserContext } from '../../../../../tools/browser/index.js'
import { useBrowser } from '../../../../support/browser.js'
import { startTestApp, TOKEN, type TestApp } from '../../../../support/http-app.js'

// CORS as a browser applies it: a page of an allowed origin calls the API and reads what it needs
// (the answer, its request id, a 401's challenge); a page of any other origin is refused by its
// browser. The page server answers on 127.0.0.1 (allowed) and on localhost (another origin, refused).

const PAGE = '<!doctype html><meta charset="utf-8"><title>a page of another origin</title>'

// What the page's script reports of one call: the answer it could read, or the browser's refusal.
type Seen = { readonly status: number; readonly body: string; readonly requestId: string | null; readonly challenge: string | null } | { readonly refused: string }

const callFromPage = async (context: BrowserContext, pageUrl: string, api: string, token: string, id = '9007199254740993'): Promise<Seen> => {
  const page = await context.newPage()
  try {
    await page.goto(pageUrl)
    return await page.evaluate(
      async ({ api, token, id }) => {
        try {
          const response = await fetch(`${api}/plants`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'X-Request-Id': 'from-the-page-1' },
            body: `{"id": ${id}, "name": "Fern"}`,
          })
          return {
            status: response.status,
            body: await response.text(),
            requestId: response.headers.get('X-Request-Id'),
            challenge: response.headers.get('WWW-Authenticate'),
          }
        } catch (error) {
          return { refused: String(error) }
        }
      },
      { api, token, id },
    )
  } finally {
    await page.close()
  }
}

describe('CORS, from pages of other origins in headless Chromium', function () {
  this.timeout(60_000)
  let app: TestApp | undefined
  let pages: Server | undefined
  let pagePort = 0

  const browser = useBrowser('CORS in a headless browser')

  before(async function () {
    pages = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE))
    pages.listen(0, '127.0.0.1')
    await once(pages, 'listening')
    pagePort = (pages.address() as AddressInfo).port
    app = await startTestApp({ crossOrigin: { origins: [`http://127.0.0.1:${pagePort}`] } })
  })
  after(async function () {
    await app?.close()
    pages?.close()
  })

  it('lets a page of an allowed origin create a plant and read its answer and request id', async function () {
    if (app === undefined) return expect.fail('the app did not start')
    const seen = await callFromPage(browser.context(), `http://127.0.0.1:${pagePort}/`, app.url, TOKEN)
    expect(seen).to.deep.equal({ status: 200, body: '{"name":"Fern"}', requestId: 'from-the-page-1', challenge: null })
  })

  it("lets that page read a 401's challenge, so it can tell the user to sign in again", async function () {
    if (app === undefined) return expect.fail('the app did not start')
    const seen = await callFromPage(browser.context(), `http://127.0.0.1:${pagePort}/`, app.url, 'a-token-nobody-issued-0000')
    expect(seen).to.deep.include({ status: 401, requestId: 'from-the-page-1' })
    expect(seen).to.have.property('challenge').that.matches(/^Bearer realm="plant-store", error="invalid_token"/)
  })

  it('refuses a page of any other origin: its browser gets no answer to read, and nothing is stored', async function () {
    if (app === undefined) return expect.fail('the app did not start')
    const seen = await callFromPage(browser.context(), `http://localhost:${pagePort}/`, app.url, TOKEN, '77')
    expect(seen).to.have.property('refused').that.matches(/TypeError: Failed to fetch/)
    const later = await fetch(`${app.url}/plants`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: '{"id": 77, "name": "Other"}',
    })
    expect(later.status, 'id 77 was free: the refused page stored nothing').to.equal(200)
  })
})

describe('CORS, the headers on the wire', function () {
  let app: TestApp | undefined
  const allowed = 'https://app.example.com'

  before(async function () {
    app = await startTestApp({ crossOrigin: { origins: [allowed] } })
  })
  after(async function () {
    await app?.close()
  })

  const preflight = (origin: string, path = '/plants') =>
    fetch(`${app?.url ?? ''}${path}`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    })

  it('answers a preflight from an allowed origin with 204, before authentication, naming only what the API needs', async function () {
    const response = await preflight(allowed)
    expect(response.status).to.equal(204)
    expect(response.headers.get('access-control-allow-origin')).to.equal(allowed)
    expect(response.headers.get('access-control-allow-headers')).to.equal('Authorization,Content-Type,X-Request-Id')
    // The methods the service answers (docs/operating.md names them): the operation's POST, and GET and HEAD.
    expect(response.headers.get('access-control-allow-methods')).to.equal('GET,HEAD,POST')
    expect(response.headers.get('access-control-allow-credentials')).to.equal(null)
    expect(response.headers.get('vary')).to.match(/Origin/)
  })

  it('keeps Vary: Origin beside Vary: Accept-Encoding on the /docs files, so a cache does not serve one origin\'s answer to another', async function () {
    for (const origin of [allowed, 'https://evil.example']) {
      // node:http, not fetch: the docs files are no answer of the API's document, which the traffic check holds fetch to.
      const response = await new Promise<IncomingMessage>((resolve, reject) =>
        request(`${app?.url ?? ''}/docs/docs.js`, { headers: { Origin: origin } }, (res) => resolve(res.resume()))
          .on('error', reject)
          .end(),
      )
      expect(response.statusCode).to.equal(200)
      const vary = String(response.headers.vary ?? '').split(',').map((field) => field.trim().toLowerCase())
      expect(vary, origin).to.include.members(['origin', 'accept-encoding'])
    }
  })

  it('answers a preflight from another origin as any OPTIONS: 405, with no CORS header', async function () {
    const response = await preflight('https://evil.example')
    expect(response.status).to.equal(405)
    expect(response.headers.get('access-control-allow-origin')).to.equal(null)
  })

  it('exposes exactly X-Request-Id, WWW-Authenticate and Retry-After on an answer to an allowed origin', async function () {
    const response = await fetch(`${app?.url ?? ''}/plants`, {
      method: 'POST',
      headers: { Origin: allowed, 'Content-Type': 'application/json' },
      body: '{"id":1,"name":"x"}',
    })
    expect(response.status).to.equal(401)
    expect(response.headers.get('access-control-allow-origin')).to.equal(allowed)
    expect(response.headers.get('access-control-expose-headers')).to.equal('X-Request-Id,WWW-Authenticate,Retry-After')
  })

  it('adds nothing when CORS is off, the default', async function () {
    const plain = await startTestApp()
    try {
      const response = await fetch(`${plain.url}/plants`, {
        method: 'OPTIONS',
        headers: { Origin: allowed, 'Access-Control-Request-Method': 'POST' },
      })
      expect(response.status).to.equal(405)
      expect(response.headers.get('access-control-allow-origin')).to.equal(null)
    } finally {
      await plain.close()
    }
  })
})
