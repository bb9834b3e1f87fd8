import { expect } from 'chai'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { TOKEN, postPlant, useTestApp } from '../../../../support/http-app.js'
import { expectOneRawErrorDocument, finalResponses, openRaw, settlesWithin, waitForText } from '../../../../support/raw-http.js'
import { expectErrorDocument, expectPlant } from '../../../../support/responses.js'

const WAIT_MS = 3_000

describe('HTTP edge cases, answered as RFC 9110 and 9112 say', function () {
  const app = useTestApp()

  const exchange = async (request: string): Promise<string> => {
    const connection = await openRaw(app.url)
    connection.write(request)
    await settlesWithin(connection.closed, WAIT_MS)
    connection.socket.destroy()
    return connection.received()
  }

  it('answers Expect: 200-ok with 417 and an Error document', async function () {
    const received = await exchange('GET /healthz HTTP/1.1\r\nHost: test\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n')
    expectOneRawErrorDocument(received, 417)
  })

  it('answers CONNECT with 501 and an Error document, and closes', async function () {
    const received = await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')
    const response = expectOneRawErrorDocument(received, 501)
    expect(response.headers['connection']).to.equal('close')
  })

  it('answers a method no server implements (BREW) with 501 and an Error document naming the methods to send, and closes', async function () {
    for (const path of ['/plants', '/nowhere']) {
      const received = await exchange(`BREW ${path} HTTP/1.1\r\nHost: test\r\n\r\n`)
      const response = expectOneRawErrorDocument(received, 501)
      expect(response.headers['connection']).to.equal('close')
      expect(JSON.parse(response.body)).to.have.property('message').that.includes('GET, HEAD or POST')
    }
  })

  it('answers 501 to a BREW pipelined behind a request, after that request', async function () {
    const received = await exchange('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\nBREW /plants HTTP/1.1\r\nHost: test\r\n\r\n')
    expect(finalResponses(received).map((response) => response.status)).to.deep.equal([200, 501])
  })

  it('answers 400, not 501, to bytes that are no request line at all', async function () {
    expectOneRawErrorDocument(await exchange('not http at all\r\n\r\n'), 400)
  })

  it('answers a method Node knows but no route takes (PROPFIND) with 405 on a known path and 404 elsewhere', async function () {
    expectOneRawErrorDocument(await exchange('PROPFIND /plants HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n'), 405)
    expectOneRawErrorDocument(await exchange('PROPFIND /nowhere HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n'), 404)
  })

  it('answers a transfer coding before chunked that it does not decode (gzip, chunked) with 501, unread, and closes', async function () {
    const received = await exchange(
      `POST /plants HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
        'Transfer-Encoding: gzip, chunked\r\n\r\n5\r\nab',
    )
    const response = expectOneRawErrorDocument(received, 501)
    expect(response.headers['connection']).to.equal('close')
    expect(JSON.parse(response.body)).to.have.property('message').that.includes('chunked')
  })

  // A 501 refuses what the client sent, as a 4xx does: logged as a refusal, never as the service
  // failing, and the connection closed after it as after every refusal of the framing, even when
  // the chunked body has all arrived.
  it('answers gzip, chunked (and , chunked) with a whole body 501, logs it as a refusal, and closes', async function () {
    for (const [coding, token] of [['gzip, chunked', TOKEN], [', chunked', TOKEN], ['gzip, chunked', undefined]] as const) {
      const connection = await openRaw(app.url)
      connection.write(
        `POST /plants HTTP/1.1\r\nHost: test\r\n${token === undefined ? '' : `Authorization: Bearer ${token}\r\n`}Content-Type: application/json\r\n` +
          `Transfer-Encoding: ${coding}\r\n\r\n0\r\n\r\n`,
      )
      expect(await settlesWithin(connection.closed, WAIT_MS), `closed by the server: ${coding}`).to.equal(true)
      const response = expectOneRawErrorDocument(connection.received(), 501)
      expect(response.headers['connection'], coding).to.equal('close')
      const line = app.log.lines.find((entry) => entry['requestId'] === response.headers['x-request-id'])
      expect(line, `the request's log line: ${coding}`).to.include({ level: 'info', msg: 'request', status: 501 })
      expect(line, coding).to.not.have.property('cause')
    }
  })

  it('answers 400 to a Transfer-Encoding whose last coding is not chunked, and closes', async function () {
    const received = await exchange(`POST /plants HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${TOKEN}\r\nTransfer-Encoding: gzip\r\n\r\nabc`)
    expect(expectOneRawErrorDocument(received, 400).headers['connection']).to.equal('close')
  })

  it('answers Expect: 100-continue without a token with 401, never inviting the body', async function () {
    const connection = await openRaw(app.url)
    connection.write('POST /plants HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 20\r\nExpect: 100-continue\r\n\r\n')
    expect(await settlesWithin(connection.closed, WAIT_MS), 'closed by the server').to.equal(true)
    expect(connection.received()).not.to.include('100 Continue')
    const response = expectOneRawErrorDocument(connection.received(), 401)
    expect(response.headers['connection']).to.equal('close')
  })

  it('invites the body of Expect: 100-continue with a valid token, and creates the plant', async function () {
    const connection = await openRaw(app.url)
    const body = '{"id":1,"name":"Fern"}'
    connection.write(
      `POST /plants HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    )
    await waitForText(connection, /^HTTP\/1\.1 100 Continue\r\n\r\n$/, WAIT_MS)
    connection.write(body)
    await waitForText(connection, /"Fern"\}$/, WAIT_MS)
    connection.socket.destroy()
    const [created] = finalResponses(connection.received())
    expect(created?.status).to.equal(200)
    expect(JSON.parse(created?.body ?? '')).to.deep.equal({ name: 'Fern' })
  })

  it('answers a request with two Host headers with 400', async function () {
    const received = await exchange('GET /healthz HTTP/1.1\r\nHost: one\r\nHost: two\r\nConnection: close\r\n\r\n')
    expectOneRawErrorDocument(received, 400)
  })

  for (const host of [
    'a b',
    'user@plants.test',
    'plants.test/x',
    'plants.test:80a',
    '[::1',
    'plants.test\\x',
    '[zz]',
    '[1:2:3:4:5:6:7:8:9]',
    '[::1]x',
    'a:99999',
    'a:65536',
    'a:000080',
    `${'a'.repeat(63)}.`.repeat(4) + 'a'.repeat(44),
    `${'a'.repeat(64)}.plants.test`,
    'a'.repeat(300),
  ]) {
    it(`answers a Host header of ${JSON.stringify(host.length > 40 ? `${host.slice(0, 20)}... (${host.length} characters)` : host)} with 400`, async function () {
      const received = await exchange(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
      expectOneRawErrorDocument(received, 400)
    })
  }

  it('serves a Host of a name (255 characters, labels of 63, at most), an IPv4 or IPv6 address, with or without a port, or empty', async function () {
    const longest = `${'a'.repeat(63)}.`.repeat(3) + 'a'.repeat(63)
    for (const host of [
      'plants.test',
      'plants.test:8080',
      '127.0.0.1:3000',
      '[::1]',
      '[::1]:3000',
      '[::ffff:192.0.2.1]:65535',
      'xn--bcher-kva.example',
      'plants.test:0',
      'plants.test:',
      longest,
      `${longest}:443`,
      '',
    ]) {
      const [answer] = finalResponses(await exchange(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`))
      expect(answer?.status, JSON.stringify(host)).to.equal(200)
    }
  })

  for (const version of ['HTTP/2.0', 'HTTP/0.9']) {
    it(`answers a request line saying ${version} with 400, and stores nothing`, async function () {
      const body = '{"id":3,"name":"versioned"}'
      const received = await exchange(
        `POST /plants ${version}\r\nHost: test\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\n\r\n${body}`,
      )
      expect(expectOneRawErrorDocument(received, 400).headers['connection']).to.equal('close')
      await expectPlant(await postPlant(app.url, '{"id":3,"name":"another"}'), { name: 'another' })
    })
  }

  for (const target of ['/plants#fragment', '/healthz#', 'http://plants.test/healthz#top']) {
    it(`answers a request target with a fragment, ${target}, with 400`, async function () {
      const received = await exchange(`GET ${target} HTTP/1.1\r\nHost: plants.test\r\nConnection: close\r\n\r\n`)
      expectOneRawErrorDocument(received, 400)
    })
  }

  it('serves a request line saying HTTP/1.0', async function () {
    const body = '{"id":4,"name":"old"}'
    const received = await exchange(
      `POST /plants HTTP/1.0\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body}`,
    )
    const [created] = finalResponses(received)
    expect(created?.status).to.equal(200)
    expect(JSON.parse(created?.body ?? '')).to.deep.equal({ name: 'old' })
  })

  describe('Content-Encoding, case-insensitive', function () {
    const body = '{"id":2,"name":"zipped"}'
    for (const [coding, encode] of [
      ['gzip', gzipSync],
      ['GZIP', gzipSync],
      ['Deflate', deflateSync],
      ['br', brotliCompressSync],
      ['BR', brotliCompressSync],
      ['identity', (text: string) => Buffer.from(text)],
    ] as const) {
      it(`reads a body sent with Content-Encoding: ${coding}`, async function () {
        await expectPlant(await postPlant(app.url, new Uint8Array(encode(body)), { 'Content-Encoding': coding }), { name: 'zipped' })
      })
    }

    it('answers 415 to another coding, naming the codings it reads and not the one sent', async function () {
      const message = await expectErrorDocument(await postPlant(app.url, body, { 'Content-Encoding': 'x-lzw' }), 415)
      expect(message).to.include('gzip, deflate, br')
      expect(message).not.to.include('lzw')
    })
  })
})
