import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { makeInMemoryPlantStore } from '../../../../../adapters/in-memory/index.js'
import { unavailablePlantStore } from '../../../../support/fakes.js'
import { postPlant, startTestApp } from '../../../../support/http-app.js'
import type { HttpAppDeps } from '../../../../../adapters/http/index.js'

// The log table of docs/operating.md, held to the lines the app writes: each line below is made
// by a request, and must stand in the table under the level it was written at, with the fields
// the table promises every request line.

const OPERATING = readFileSync(new URL('../../../../../docs/operating.md', import.meta.url), 'utf8')
const LOGS = OPERATING.slice(OPERATING.indexOf('## Logs'), OPERATING.indexOf('## Metrics'))
const TABLE: ReadonlyMap<string, string> = new Map(
  [...LOGS.matchAll(/^\| `([^`|]+)`(?:, `[^`|]+`)* \| (info|warn|error) \|/gm)].map(([, msg = '', level = '']) => [msg, level]),
)

const REQUEST_FIELDS = ['requestId', 'method', 'route', 'status', 'ms']

describe("the log table of docs/operating.md, against the lines the app writes", function () {
  const cases: ReadonlyArray<{
    readonly msg: string
    readonly deps: () => Partial<HttpAppDeps>
    readonly send: (url: string) => Promise<unknown>
    readonly status: number
  }> = [
    { msg: 'request', deps: () => ({}), send: (url) => postPlant(url, '{"id":1,"name":"Fern"}'), status: 200 },
    {
      msg: 'request refused: storage full',
      deps: () => ({ plantStore: makeInMemoryPlantStore({ maxPlants: 1 }) }),
      send: async (url) => {
        await postPlant(url, '{"id":1,"name":"Fern"}')
        return postPlant(url, '{"id":2,"name":"Moss"}')
      },
      status: 507,
    },
    {
      msg: 'request refused: dependency unavailable',
      deps: () => ({ plantStore: unavailablePlantStore(new Error('down')) }),
      send: (url) => postPlant(url, '{"id":1,"name":"Fern"}'),
      status: 503,
    },
    {
      msg: 'request failed',
      deps: () => ({ plantStore: { insertUnlessExists: () => () => Promise.reject(new Error('bug')), checkReady: () => TE.right(undefined) } }),
      send: (url) => postPlant(url, '{"id":1,"name":"Fern"}'),
      status: 500,
    },
    { msg: 'request refused: shutting down', deps: () => ({ draining: () => true }), send: (url) => fetch(`${url}/readyz`), status: 503 },
  ]

  for (const { msg, deps, send, status } of cases) {
    it(`documents "${msg}" at the level it is written, with the request fields`, async function () {
      const app = await startTestApp(deps())
      try {
        await send(app.url)
        const line = app.log.lines.find((written) => written['msg'] === msg && written['status'] === status)
        expect(line, `a "${msg}" line for a ${status}`).not.to.equal(undefined)
        expect(TABLE.get(msg), `the table's level of "${msg}"`).to.equal(line?.['level'])
        expect(line).to.include.keys(...REQUEST_FIELDS)
      } finally {
        await app.close()
      }
    })
  }
})
