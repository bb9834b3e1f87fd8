import { expect } from 'chai'
import * as fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { REQUEST_ID_PATTERN, requestIdFrom } from '../../../../../adapters/http/context/request-context.js'

// One rule says which caller request ids are kept: REQUEST_ID_PATTERN. The load balancer recipe
// (deploy/nginx.conf) keeps the caller's id by the same pattern, so what an instance would keep
// reaches it unchanged, and what it would replace is replaced before.
const NGINX_CONF = readFileSync(new URL('../../../../../deploy/nginx.conf', import.meta.url), 'utf8')

describe('the request ids a caller may choose', function () {
  it("are kept by deploy/nginx.conf's map by the service's own pattern, and nginx's id given otherwise", function () {
    const map = /map \$http_x_request_id \$(\w+) \{\n\s*"~([^"]+)" \$http_x_request_id;\n\s*default \$request_id;\n\s*\}/.exec(NGINX_CONF)
    expect(map, 'the map of the caller’s X-Request-Id').not.to.equal(null)
    // nginx's regex is PCRE in a quoted string: the pattern as it is written, backslash and all.
    expect(map?.[2]).to.equal(REQUEST_ID_PATTERN)
    expect(NGINX_CONF).to.include(`proxy_set_header X-Request-Id $${map?.[1] ?? ''};`)
  })

  it('are kept exactly when they match the pattern, and replaced otherwise', function () {
    const wellFormed = new RegExp(REQUEST_ID_PATTERN)
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 140 }), fc.stringMatching(wellFormed)), (header) => {
        expect(requestIdFrom(header) === header).to.equal(wellFormed.test(header))
      }),
    )
  })
})
