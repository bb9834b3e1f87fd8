import { expect } from 'chai'
import { finalResponses, openRaw, settlesWithin } from '../../../../support/raw-http.js'
import { startTestApp, TOKEN, type TestApp } from '../../../../support/http-app.js'

// Bytes that do not parse right after a valid request, on the same connection (pipelined, or on
// the same write): the valid request's answer goes out first, whole, then the 400, then the
// connection closes. Answering the 400 at once took the socket from under the first answer,
// though its plant was stored.

describe('a parse error behind a request in flight', function () {
  let app: TestApp | undefined
  before(async function () {
    app = await startTestApp()
  })
  after(async function () {
    await app?.close()
  })

  for (const [label, trailing] of [
    ['a broken request line', 'NOT A REQUEST LINE\r\n\r\n'],
    ['headers that do not parse', 'POST /plants HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'],
  ] as const) {
    it(`answers the stored plant, then 400 for ${label}, then closes`, async function () {
      const body = '{"id":42,"name":"Fern"}'
      const connection = await openRaw(app?.url ?? '')
      connection.write(
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}${trailing}`,
      )
      expect(await settlesWithin(connection.closed, 3000), 'closed by the server').to.equal(true)
      const responses = finalResponses(connection.received())
      expect(responses.map((response) => response.status)).to.deep.equal([200, 400])
      expect(JSON.parse(responses[0]?.body ?? '{}')).to.deep.equal({ name: 'Fern' })
    })
  }
})
