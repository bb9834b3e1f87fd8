import { expect } from 'chai'
import { createHttpApp } from '../../../../../adapters/http/index.js'
import { type InMemoryPlantStore } from '../../../../../adapters/in-memory/index.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { storageUnavailable, type PlantStore } from '../../../../../core/index.js'
import { TOKEN, postPlant, useTestApp } from '../../../../support/http-app.js'
import { rawExchange } from '../../../../support/raw-http.js'
import { expectErrorDocument, expectPlant } from '../../../../support/responses.js'

describe('routes beside the operation', function () {
  const app = useTestApp()

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

  it('answers POST /plants with a query string as it answers POST /plants, under the same route name', async function () {
    const plain = await fetch(`${app.url}/plants`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: '{"id":1,"name":"Fern"}',
    })
    await expectPlant(plain, { name: 'Fern' })
    const queried = await fetch(`${app.url}/plants?source=catalogue`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: '{"id":2,"name":"Moss"}',
    })
    await expectPlant(queried, { name: 'Moss' })
    expect((app.deps.plantStore as InMemoryPlantStore).all().map((plant) => plant.id)).to.deep.equal([1n, 2n])
    const unauthenticated = await fetch(`${app.url}/plants?source=catalogue`, { method: 'POST', body: '{}' })
    await expectErrorDocument(unauthenticated, 401)
    expect(app.log.lines.filter((line) => line['msg'] === 'request' && line['method'] === 'POST').map((line) => [line['route'], line['status']])).to.deep.equal([
      ['/plants', 200],
      ['/plants', 200],
      ['/plants', 401],
    ])
  })

  it('answers POST /plants sent in absolute form (http://host/plants) as it answers POST /plants', async function () {
    const body = '{"id":3,"name":"Ivy"}'
    const reply = await rawExchange(
      app.url,
      `POST http://plants.test/plants HTTP/1.1\r\nHost: plants.test\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    )
    expect(reply).to.match(/^HTTP\/1\.1 200 /)
    expect(reply.slice(reply.indexOf('\r\n\r\n') + 4)).to.equal('{"name":"Ivy"}')
    expect((app.deps.plantStore as InMemoryPlantStore).find(3n)).to.deep.equal({ id: 3n, name: 'Ivy' })
    expect(app.log.lines.find((line) => line['method'] === 'POST')).to.include({ route: '/plants', status: 200 })
  })

  it('answers 404 with an Error document for an unknown path', async function () {
    for (const path of ['/', '/plant', '/plants/1', '/PLANTS/x/y', '/healthz/deep']) {
      await expectErrorDocument(await fetch(`${app.url}${path}`, { method: 'POST' }), 404)
    }
  })

  it('matches paths exactly: another case or a trailing slash is another path', async function () {
    for (const path of ['/PLANTS', '/plants/', '/Healthz', '/healthz/']) {
      const response = await fetch(`${app.url}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: '{"id":1,"name":"x"}',
      })
      await expectErrorDocument(response, 404)
    }
  })

  it('answers an HTTP/1.1 request without a Host header with a 400 Error document', async function () {
    const reply = await rawExchange(app.url, 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n')
    expect(reply).to.match(/^HTTP\/1\.1 400 /)
    expect(reply).to.match(/content-type: application\/json/i)
    expect(reply).to.include('"error":400')
  })

  it('answers a request Node cannot parse with a 400 Error document', async function () {
    const reply = await rawExchange(app.url, 'NOT HTTP AT ALL\r\n\r\n')
    expect(reply).to.match(/^HTTP\/1\.1 400 /)
    expect(reply).to.match(/content-type: application\/json/i)
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).to.have.keys(['error', 'message'])
  })

  it('answers headers that are too large with a 431 Error document', async function () {
    const reply = await rawExchange(app.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)
    expect(reply).to.match(/^HTTP\/1\.1 431 /)
    expect(reply).to.include('"error":431')
  })

  it('refuses to build an app whose base path the router would read as a pattern', function () {
    for (const basePath of ['/:tenant', '/a*', '/v(1)', '/a+b', 'api', '/api/']) {
      expect(() => createHttpApp({ ...app.deps, basePath }), basePath).to.throw(TypeError, /basePath/)
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
    const down: PlantStore = {
      insertUnlessExists: () => TE.left(storageUnavailable(new Error('down'))),
      checkReady: () => TE.left(storageUnavailable(new Error('down'))),
    }
    await app.restart({ plantStore: down })
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
      await app.restart({ basePath: '/api/v1' })
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
