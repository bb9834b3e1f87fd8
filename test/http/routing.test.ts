import { expect } from 'chai'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { storageUnavailable, type PlantStore } from '../../core/index.js'
import { TOKEN, postPlant, startTestApp, type TestApp } from '../support/http-app.js'
import { expectErrorDocument, expectPlant } from '../support/responses.js'

describe('routes beside the operation', function () {
  let app: TestApp
  beforeEach(async function () {
    app = await startTestApp()
  })
  afterEach(async function () {
    await app.close()
  })

  for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
    it(`answers 405 with Allow: POST to ${method} /plants`, async function () {
      const response = await fetch(`${app.url}/plants`, { method, headers: { Authorization: `Bearer ${TOKEN}` } })
      await expectErrorDocument(response, 405)
      expect(response.headers.get('allow')).to.equal('POST')
    })
  }

  it('answers 405 with Allow: POST to HEAD /plants, without a body', async function () {
    const response = await fetch(`${app.url}/plants`, { method: 'HEAD' })
    expect(response.status).to.equal(405)
    expect(response.headers.get('allow')).to.equal('POST')
  })

  it('answers 404 with an Error document for an unknown path', async function () {
    for (const path of ['/', '/plant', '/plants/1', '/PLANTS/x/y', '/healthz/deep']) {
      await expectErrorDocument(await fetch(`${app.url}${path}`, { method: 'POST' }), 404)
    }
  })

  it('answers 405 for a method the probes do not take', async function () {
    const response = await fetch(`${app.url}/healthz`, { method: 'POST' })
    await expectErrorDocument(response, 405)
    expect(response.headers.get('allow')).to.equal('GET, HEAD')
  })

  it('serves GET /healthz without authentication', async function () {
    const response = await fetch(`${app.url}/healthz`)
    expect(response.status).to.equal(200)
    expect(await response.json()).to.deep.equal({ status: 'alive' })
  })

  it('serves GET /readyz with 200 while storage answers', async function () {
    const response = await fetch(`${app.url}/readyz`)
    expect(response.status).to.equal(200)
    expect(await response.json()).to.deep.equal({ status: 'ready' })
  })

  it('serves GET /readyz with 503 while storage does not answer', async function () {
    await app.close()
    const down: PlantStore = {
      insertUnlessExists: () => TE.left(storageUnavailable(new Error('down'))),
      checkReady: () => TE.left(storageUnavailable(new Error('down'))),
    }
    app = await startTestApp({ plantStore: down })
    await expectErrorDocument(await fetch(`${app.url}/readyz`), 503)
    expect((await fetch(`${app.url}/healthz`)).status).to.equal(200)
  })

  it('serves the OpenAPI document without authentication', async function () {
    const response = await fetch(`${app.url}/openapi.json`)
    expect(response.status).to.equal(200)
    expect(response.headers.get('content-type')).to.match(/^application\/json\b/)
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> }
    expect(document.openapi).to.match(/^3\.1\./)
    expect(JSON.stringify(document.paths)).to.include('/plants')
  })

  describe('with a base path', function () {
    beforeEach(async function () {
      await app.close()
      app = await startTestApp({ basePath: '/api/v1' })
    })

    it('serves the operation under the base path only', async function () {
      await expectPlant(await postPlant(`${app.url}/api/v1`, '{"id":1,"name":"x"}'), { name: 'x' })
      await expectErrorDocument(await postPlant(app.url, '{"id":2,"name":"y"}'), 404)
    })

    it('keeps the probes and the document at the root', async function () {
      expect((await fetch(`${app.url}/healthz`)).status).to.equal(200)
      expect((await fetch(`${app.url}/readyz`)).status).to.equal(200)
      expect((await fetch(`${app.url}/openapi.json`)).status).to.equal(200)
    })
  })
})
