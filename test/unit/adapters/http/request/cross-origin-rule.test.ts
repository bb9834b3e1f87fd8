import { expect } from 'chai'
import fc from 'fast-check'
import {
  CROSS_ORIGIN_EXPOSED_HEADERS,
  CROSS_ORIGIN_MAX_AGE_SECONDS,
  CROSS_ORIGIN_REQUEST_HEADERS,
  crossOrigin,
} from '../../../../../adapters/http/request/cross-origin.js'

// The rule, as cross-origin.ts states it: every answer varies on Origin; a request of a listed
// origin is a preflight when it is an OPTIONS, on a path that takes one, naming the method it asks
// for, and is then answered 204 naming the origin, the methods, the request headers and the max
// age; any other request of a listed origin carries the origin and the headers its page may read;
// a request of no listed origin (none, empty, or another) carries Vary alone.
describe('CORS, against its rule over generated requests', () => {
  const LISTED = ['https://shop.example', 'http://localhost:5173']
  const METHODS = ['POST']
  const PREFLIGHT_PATHS = new Set(['/plants'])
  const policy = crossOrigin({ origins: LISTED }, METHODS, PREFLIGHT_PATHS)

  // Weighted towards the edges: listed origins, OPTIONS, the preflight path, and requests that
  // ask for no method, so that each clause of the rule is met within a run.
  const requests = fc.record({
    origin: fc.oneof(
      { arbitrary: fc.constantFrom(...LISTED), weight: 4 },
      { arbitrary: fc.constantFrom(undefined, '', 'https://elsewhere.example', 'null', 'HTTPS://SHOP.EXAMPLE'), weight: 2 },
      { arbitrary: fc.string(), weight: 1 },
    ),
    accessControlRequestMethod: fc.constantFrom(undefined, '', 'POST', 'GET', 'DELETE'),
    method: fc.oneof({ arbitrary: fc.constant('OPTIONS'), weight: 3 }, { arbitrary: fc.constantFrom('POST', 'GET', 'HEAD', 'PUT'), weight: 2 }),
    path: fc.oneof({ arbitrary: fc.constant('/plants'), weight: 3 }, { arbitrary: fc.constantFrom('/healthz', '/openapi.json', '/plants/1', '/'), weight: 2 }),
  })

  it('answers each request as the rule says', () => {
    fc.assert(
      fc.property(requests, ({ origin, accessControlRequestMethod, method, path }) => {
        const answer = policy({ origin, accessControlRequestMethod }, method, path)
        expect(answer.headers['Vary'], 'Vary').to.equal('Origin')
        const listed = origin !== undefined && LISTED.includes(origin)
        const preflight = listed && method === 'OPTIONS' && PREFLIGHT_PATHS.has(path) && accessControlRequestMethod !== undefined && accessControlRequestMethod !== ''
        if (preflight) {
          expect(answer.preflight).to.deep.equal({
            _tag: 'Representation',
            status: 204,
            headers: {
              'Access-Control-Allow-Origin': origin,
              'Access-Control-Max-Age': String(CROSS_ORIGIN_MAX_AGE_SECONDS),
              'Access-Control-Allow-Methods': METHODS.join(','),
              'Access-Control-Allow-Headers': CROSS_ORIGIN_REQUEST_HEADERS.join(','),
            },
          })
        } else {
          expect(answer.preflight, 'no preflight answer').to.equal(undefined)
          expect(answer.headers).to.deep.equal(
            listed ? { Vary: 'Origin', 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': CROSS_ORIGIN_EXPOSED_HEADERS.join(',') } : { Vary: 'Origin' },
          )
        }
      }),
    )
  })
})
