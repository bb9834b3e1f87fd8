import { expect } from 'chai'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createPlantStoreClient } from '../../../adapters/http-client/index.js'
import { CREATE_PLANT, CREATE_PLANT_ERRORS, errorAnswer } from '../../../wire/index.js'
import { expectRight } from '../../support/either.js'
import { startTestApp, TOKEN, type TestApp } from '../../support/http-app.js'

// The routes, the OpenAPI document and the client take the createPlant operation from its one
// definition. Seen from outside, that is: the client sends its request where the served document
// says the operation is, with the method it names; the service answers it there, and refuses
// every other method of that path naming this one; the document lists every status the
// definition does; and the client reads every Error answer the definition lists as an answer of
// the API, not as a stranger's.

interface ServedOperation {
  readonly method: string
  readonly path: string
  readonly statuses: ReadonlyArray<string>
}

const servedOperations = async (url: string, operationId: string): Promise<ReadonlyArray<ServedOperation>> => {
  const document = (await (await fetch(`${url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>
  }
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation.operationId === operationId)
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, statuses: Object.keys(operation.responses ?? {}) })),
  )
}

describe('the createPlant operation, as the served document, the router and the client take it', function () {
  this.timeout(20_000)
  let app: TestApp | undefined
  afterEach(async function () {
    await app?.close()
    app = undefined
  })

  for (const basePath of ['', '/api/v1']) {
    it(`is called by the client where the document puts it, and answered there by the router (base path '${basePath}')`, async function () {
      app = await startTestApp({ basePath })
      const served = await servedOperations(app.url, CREATE_PLANT.operationId)
      expect(served).to.have.lengthOf(1)
      const [operation] = served
      if (operation === undefined) return
      expect(operation.statuses).to.include.members(Object.keys(CREATE_PLANT.statuses))

      const sent: Array<{ url: string; method: string | undefined }> = []
      const client = createPlantStoreClient({
        baseUrl: `${app.url}${basePath}`,
        token: TOKEN,
        fetch: (input, init) => {
          sent.push({ url: String(input as string), method: init?.method })
          return fetch(input, init)
        },
      })
      expect(expectRight(await client.createPlant({ id: 7n, name: 'Monstera' })())).to.deep.equal({ name: 'Monstera' })
      expect(sent.map(({ url, method }) => `${method ?? 'GET'} ${new URL(url).pathname}`)).to.deep.equal([
        `${operation.method} ${operation.path}`,
      ])

      const other = await fetch(`${app.url}${operation.path}`, { method: 'PUT' })
      expect(other.status).to.equal(405)
      expect(other.headers.get('allow')).to.equal(operation.method)
      await other.arrayBuffer()
    })
  }

  it('has the client read every Error answer the definition lists as the service meant it', async function () {
    const server = createServer((request, response) => {
      const status = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('status'))
      const answer = errorAnswer(status as (typeof CREATE_PLANT_ERRORS)[number][0], 'The service said so.', {
        'WWW-Authenticate': 'Bearer error="insufficient_scope", scope="plants:write"',
      })
      request.resume()
      response.writeHead(answer.status, answer.wireHeaders).end(answer.text)
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      for (const [status, answer] of CREATE_PLANT_ERRORS) {
        const client = createPlantStoreClient({
          baseUrl: origin,
          token: TOKEN,
          // The stub answers the status the request names.
          fetch: (input, init) => fetch(`${String(input as string)}?status=${status}`, init),
        })
        const result = await client.createPlant({ id: 7n, name: 'Monstera' })()
        expect(result._tag, `${status} ${answer}`).to.equal('Left')
        if (result._tag === 'Left') expect(result.left._tag, `${status} ${answer}`).not.to.equal('UnexpectedResponse')
      }
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
