import { expect } from 'chai'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { DEFAULT_IN_MEMORY_LIMITS, makeInMemoryPlantStore, type InMemoryPlantStore } from '../../../../../adapters/in-memory/index.js'
import type { PlantStore } from '../../../../../core/index.js'
import { expectRight } from '../../../../support/either.js'
import { TOKEN, postPlant, useTestApp } from '../../../../support/http-app.js'
import { expectOneRawErrorDocument, rawExchange } from '../../../../support/raw-http.js'
import { plant } from '../../../../support/plants.js'
import { expectErrorDocument, expectPlant } from '../../../../support/responses.js'

describe('POST /plants', function () {
  let store: InMemoryPlantStore
  const app = useTestApp(() => {
    store = makeInMemoryPlantStore()
    return { plantStore: store }
  })


  describe('a valid NewPlant with a valid token', function () {
    it('answers 200 with exactly name and tag, and stores the plant', async function () {
      await expectPlant(await postPlant(app.url, '{"id":1,"name":"Monstera","tag":"aroid"}'), {
        name: 'Monstera',
        tag: 'aroid',
      })
      expect(store.find(1n)).to.deep.equal(plant(1n, 'Monstera', 'aroid'))
    })

    it('answers exactly the name when no tag is given', async function () {
      await expectPlant(await postPlant(app.url, '{"id":2,"name":"Fern"}'), { name: 'Fern' })
    })

    it('ignores undeclared fields: neither stored nor echoed', async function () {
      await expectPlant(await postPlant(app.url, '{"id":3,"name":"Basil","colour":"green","owner":{"x":1}}'), {
        name: 'Basil',
      })
      const stored = store.find(3n)
      expect(stored).to.deep.equal(plant(3n, 'Basil'))
      expect(stored).to.not.have.property('colour')
    })

    it('stores and returns Unicode exactly as sent', async function () {
      const name = 'Ficus \u{1F331} cafe\u0301 \u05e9\u05dc\u05d5\u05dd \u0000'
      const tag = '\u{10FFFF}\u00e9'
      await expectPlant(await postPlant(app.url, JSON.stringify({ id: 4, name, tag })), { name, tag })
      expect(store.find(4n)).to.deep.equal(plant(4n, name, tag))
    })

    it('accepts a JSON number whose exact value is an integer (1.0, 1e2)', async function () {
      await expectPlant(await postPlant(app.url, '{"id":5.0,"name":"Five"}'), { name: 'Five' })
      await expectPlant(await postPlant(app.url, '{"id":1e2,"name":"Hundred"}'), { name: 'Hundred' })
      expect(store.find(5n)).to.deep.equal(plant(5n, 'Five'))
      expect(store.find(100n)).to.deep.equal(plant(100n, 'Hundred'))
    })
  })

  describe('int64 ids, kept exactly', function () {
    it('treats 9007199254740993 and 9007199254740992 as two plants', async function () {
      await expectPlant(await postPlant(app.url, '{"id":9007199254740993,"name":"odd"}'), { name: 'odd' })
      await expectPlant(await postPlant(app.url, '{"id":9007199254740992,"name":"even"}'), { name: 'even' })
      expect(store.find(9007199254740993n)).to.deep.equal(plant(9007199254740993n, 'odd'))
      expect(store.find(9007199254740992n)).to.deep.equal(plant(9007199254740992n, 'even'))
    })

    it('accepts both ends of the int64 range', async function () {
      await expectPlant(await postPlant(app.url, '{"id":-9223372036854775808,"name":"min"}'), { name: 'min' })
      await expectPlant(await postPlant(app.url, '{"id":9223372036854775807,"name":"max"}'), { name: 'max' })
      expect(store.find(-(2n ** 63n))).to.deep.equal(plant(-(2n ** 63n), 'min'))
      expect(store.find(2n ** 63n - 1n)).to.deep.equal(plant(2n ** 63n - 1n, 'max'))
    })
  })

  describe('the same id again', function () {
    it('with the same name and tag answers 200 with the stored plant and changes nothing', async function () {
      const body = '{"id":7,"name":"Aloe","tag":"succulent"}'
      await expectPlant(await postPlant(app.url, body), { name: 'Aloe', tag: 'succulent' })
      await expectPlant(await postPlant(app.url, body), { name: 'Aloe', tag: 'succulent' })
      expect(store.find(7n)).to.deep.equal(plant(7n, 'Aloe', 'succulent'))
    })

    it('with another name answers 409 and keeps the first plant', async function () {
      await postPlant(app.url, '{"id":8,"name":"Aloe"}')
      const message = await expectErrorDocument(await postPlant(app.url, '{"id":8,"name":"Cactus"}'), 409)
      expect(message).to.include('8')
      expect(store.find(8n)).to.deep.equal(plant(8n, 'Aloe'))
    })

    it('with another tag, or a tag where there was none, answers 409', async function () {
      await postPlant(app.url, '{"id":9,"name":"Aloe","tag":"a"}')
      await expectErrorDocument(await postPlant(app.url, '{"id":9,"name":"Aloe","tag":"b"}'), 409)
      await expectErrorDocument(await postPlant(app.url, '{"id":9,"name":"Aloe"}'), 409)
      await postPlant(app.url, '{"id":10,"name":"Aloe"}')
      await expectErrorDocument(await postPlant(app.url, '{"id":10,"name":"Aloe","tag":"a"}'), 409)
    })
  })

  describe('a body that is not a NewPlant answers 400 naming the field', function () {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ['id missing', '{"name":"x"}', 'id'],
      ['id a string', '{"id":"1","name":"x"}', 'id'],
      ['id a boolean', '{"id":true,"name":"x"}', 'id'],
      ['id null', '{"id":null,"name":"x"}', 'id'],
      ['id a fraction', '{"id":1.5,"name":"x"}', 'id'],
      ['id not exactly an integer', '{"id":1.0000000000000000001,"name":"x"}', 'id'],
      ['id a fraction that rounds to an integer', '{"id":9007199254740993.5,"name":"x"}', 'id'],
      ['id just above int64', '{"id":9223372036854775808,"name":"x"}', 'id'],
      ['id just below int64', '{"id":-9223372036854775809,"name":"x"}', 'id'],
      ['id astronomically large', '{"id":1e999999999,"name":"x"}', 'id'],
      ['id an integer of 21 digits', '{"id":123456789012345678901,"name":"x"}', 'id'],
      ['name missing', '{"id":1}', 'name'],
      ['name a number', '{"id":1,"name":5}', 'name'],
      ['name null', '{"id":1,"name":null}', 'name'],
      ['tag null', '{"id":1,"name":"x","tag":null}', 'tag'],
      ['tag a number', '{"id":1,"name":"x","tag":3}', 'tag'],
      ['tag an array', '{"id":1,"name":"x","tag":["a"]}', 'tag'],
      ['name with a lone surrogate', '{"id":1,"name":"a\\ud800b"}', 'name'],
      ['tag with a lone low surrogate', '{"id":1,"name":"x","tag":"\\udc00"}', 'tag'],
    ]
    for (const [title, body, field] of cases) {
      it(title, async function () {
        const message = await expectErrorDocument(await postPlant(app.url, body), 400)
        expect(message).to.include(`\`${field}\``)
        // The hint for embedders that pass a JS number has no meaning to a client sending JSON.
        expect(message).not.to.match(/bigint|JS number/)
        expect(store.find(1n)).to.equal(undefined)
      })
    }

    it('speaks of what the client sent as JSON text: a JSON number, not a string; a number outside int64', async function () {
      const RANGE = 'an integer from -9223372036854775808 to 9223372036854775807'
      const said: ReadonlyArray<readonly [string, string]> = [
        ['{"id":"1","name":"x"}', `\`id\` must be a JSON number (${RANGE}), not a string.`],
        ['{"id":null,"name":"x"}', `\`id\` must be a JSON number (${RANGE}), not null.`],
        ['{"id":false,"name":"x"}', `\`id\` must be a JSON number (${RANGE}), not false.`],
        ['{"id":[1],"name":"x"}', `\`id\` must be a JSON number (${RANGE}), not an array.`],
        ['{"id":1.5,"name":"x"}', `\`id\` must be ${RANGE}, not a number with a fraction.`],
        ['{"id":1.0000000000000000001,"name":"x"}', `\`id\` must be ${RANGE}, not a number with a fraction.`],
        ['{"id":9223372036854775808,"name":"x"}', `\`id\` must be ${RANGE}, not a number outside that range.`],
        ['{"id":123456789012345678901,"name":"x"}', `\`id\` must be ${RANGE}, not a number outside that range.`],
        ['{"id":-1e400,"name":"x"}', `\`id\` must be ${RANGE}, not a number outside that range.`],
        ['{"name":"x"}', `\`id\` is missing: it must be a JSON number (${RANGE}).`],
        ['{"id":1}', '`name` is missing: it must be a string.'],
        ['{}', `\`id\` is missing: it must be a JSON number (${RANGE}); \`name\` is missing: it must be a string.`],
        ['{"id":1,"name":5,"tag":{"a":1}}', '`name` must be a string, not a number; `tag` must be a string, not an object.'],
        ['[{"id":1,"name":"x"}]', 'the request body must be a JSON object, not an array.'],
      ]
      for (const [body, message] of said) {
        expect(await expectErrorDocument(await postPlant(app.url, body), 400), body).to.equal(`Invalid NewPlant: ${message}`)
      }
    })

    it('names every wrong field at once', async function () {
      const message = await expectErrorDocument(await postPlant(app.url, '{"name":1,"tag":false}'), 400)
      for (const field of ['id', 'name', 'tag']) expect(message).to.include(`\`${field}\``)
    })
  })

  describe('a body that is not a JSON object answers 400', function () {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ['truncated JSON', '{"id":1,"name":"x"'],
      ['trailing garbage', '{"id":1,"name":"x"}x'],
      ['single quotes', "{'id':1}"],
      ['an empty body', ''],
      ['an array', '[{"id":1,"name":"x"}]'],
      ['a string', '"plant"'],
      ['a number', '1'],
      ['null', 'null'],
      ['a repeated key with different values', '{"id":1,"id":2,"name":"x"}'],
    ]
    for (const [title, body] of cases) {
      it(title, async function () {
        await expectErrorDocument(await postPlant(app.url, body), 400)
      })
    }

    it('says so when the body is empty', async function () {
      for (const body of ['', ' \r\n']) {
        expect(await expectErrorDocument(await postPlant(app.url, body), 400)).to.equal('Send a JSON object: the request body is empty.')
      }
    })

    it('bytes that are not UTF-8', async function () {
      const bytes = new Uint8Array([...Buffer.from('{"id":1,"name":"'), 0xff, 0xfe, ...Buffer.from('"}')])
      const message = await expectErrorDocument(await postPlant(app.url, bytes), 400)
      expect(message).to.include('UTF-8')
      expect(store.find(1n)).to.equal(undefined)
    })

    it('does not echo the submitted body in the message', async function () {
      const message = await expectErrorDocument(await postPlant(app.url, '{"id":"secret-value-42","name":"x"}'), 400)
      expect(message).to.not.include('secret-value-42')
    })
  })

  describe('media type and size', function () {
    it('answers 415 when the Content-Type is not JSON', async function () {
      await expectErrorDocument(await postPlant(app.url, '{"id":1,"name":"x"}', { 'Content-Type': 'text/plain' }), 415)
      await expectErrorDocument(
        await postPlant(app.url, 'id=1&name=x', { 'Content-Type': 'application/x-www-form-urlencoded' }),
        415,
      )
      expect(store.find(1n)).to.equal(undefined)
    })

    it('answers 415 when there is no Content-Type', async function () {
      const response = await fetch(`${app.url}/plants`, {
        method: 'POST',
        headers: { Authorization: 'Bearer test-token-0123456789abcdef' },
        body: new Uint8Array(Buffer.from('{"id":1,"name":"x"}')),
      })
      await expectErrorDocument(response, 415)
    })

    // fetch joins repeated fields into one line, so these requests are written as bytes.
    for (const [title, contentTypes] of [
      ['application/json twice', ['application/json', 'application/json']],
      ['JSON, then text', ['application/json', 'text/plain']],
      ['text, then JSON', ['text/plain', 'application/json']],
    ] as const) {
      it(`answers 415, storing nothing, for more than one Content-Type: ${title}`, async function () {
        const body = '{"id":19,"name":"x"}'
        const reply = await rawExchange(
          app.url,
          `POST /plants HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TOKEN}\r\n` +
            contentTypes.map((type) => `Content-Type: ${type}\r\n`).join('') +
            `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        )
        const response = expectOneRawErrorDocument(reply, 415)
        expect((JSON.parse(response.body) as { message: string }).message).to.equal('Send one Content-Type header, application/json.')
        expect(store.find(19n)).to.equal(undefined)
      })
    }

    it('answers 415 for JSON in a charset other than UTF-8', async function () {
      const response = await postPlant(app.url, '{"id":1,"name":"x"}', {
        'Content-Type': 'application/json; charset=iso-8859-1',
      })
      await expectErrorDocument(response, 415)
    })

    for (const contentType of ['APPLICATION/JSON', 'Application/Json; charset=utf-8', 'application/json ;charset=utf-8']) {
      it(`reads the media type case-insensitively: ${contentType}`, async function () {
        await expectPlant(await postPlant(app.url, '{"id":15,"name":"x"}', { 'Content-Type': contentType }), { name: 'x' })
      })
    }

    it('accepts a gzip body, and answers 400 for one that does not decompress', async function () {
      const whole = gzipSync('{"id":16,"name":"zipped"}')
      await expectPlant(await postPlant(app.url, new Uint8Array(whole), { 'Content-Encoding': 'gzip' }), { name: 'zipped' })
      await expectErrorDocument(await postPlant(app.url, '{"id":17,"name":"x"}', { 'Content-Encoding': 'gzip' }), 400)
      const truncated = new Uint8Array(whole.subarray(0, whole.length - 6))
      await expectErrorDocument(await postPlant(app.url, truncated, { 'Content-Encoding': 'gzip' }), 400)
      expect(store.find(17n)).to.equal(undefined)
    })

    describe('bytes after the end of the compressed stream are one rule for every coding', function () {
      const codings = [
        ['gzip', gzipSync],
        ['deflate', deflateSync],
        ['br', brotliCompressSync],
      ] as const
      const tails = [
        ['a byte of text', Buffer.from('x')],
        ['a zero byte', Buffer.from([0])],
        ['a run of text', Buffer.from('not part of the stream')],
      ] as const
      for (const [coding, compress] of codings) {
        for (const [label, tail] of tails) {
          it(`answers ${coding} followed by ${label} with 400, storing nothing`, async function () {
            const body = new Uint8Array(Buffer.concat([compress('{"id":19,"name":"x"}'), tail]))
            const message = await expectErrorDocument(await postPlant(app.url, body, { 'Content-Encoding': coding }), 400)
            expect(message).to.equal('Send a JSON object: the request body does not decompress as its Content-Encoding says.')
            expect(store.find(19n)).to.equal(undefined)
          })
        }
        it(`accepts ${coding} with nothing after its end`, async function () {
          await expectPlant(await postPlant(app.url, new Uint8Array(compress('{"id":20,"name":"whole"}')), { 'Content-Encoding': coding }), {
            name: 'whole',
          })
        })
      }
      it('accepts gzip members one after another, which RFC 1952 makes one gzip stream', async function () {
        const body = Buffer.concat([gzipSync('{"id":21,'), gzipSync('"name":"members"}')])
        await expectPlant(await postPlant(app.url, new Uint8Array(body), { 'Content-Encoding': 'gzip' }), { name: 'members' })
      })
    })

    it('answers 415 for a Content-Encoding it cannot decode', async function () {
      await expectErrorDocument(await postPlant(app.url, '{"id":18,"name":"x"}', { 'Content-Encoding': 'compress' }), 415)
    })

    it('accepts application/json with charset=utf-8 and +json media types', async function () {
      await expectPlant(
        await postPlant(app.url, '{"id":11,"name":"x"}', { 'Content-Type': 'application/json; charset=UTF-8' }),
        { name: 'x' },
      )
      await expectPlant(
        await postPlant(app.url, '{"id":12,"name":"y"}', { 'Content-Type': 'application/merge-patch+json' }),
        { name: 'y' },
      )
    })

    it('answers 413 for a body larger than the limit, and accepts one at the limit', async function () {
      const limit = app.deps.bodyLimitBytes
      const padded = (size: number) => {
        const head = '{"id":13,"name":"'
        return `${head}${'a'.repeat(size - head.length - 2)}"}`
      }
      await expectErrorDocument(await postPlant(app.url, padded(limit + 1)), 413)
      expect(store.find(13n)).to.equal(undefined)
      expect((await postPlant(app.url, padded(limit))).status).to.equal(200)
    })

    it('answers 413 for a chunked body that grows past the limit', async function () {
      const limit = app.deps.bodyLimitBytes
      const chunks = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(Buffer.from('{"id":14,"name":"'))
          for (let sent = 0; sent <= limit; sent += 8192) controller.enqueue(Buffer.alloc(8192, 'a'))
          controller.enqueue(Buffer.from('"}'))
          controller.close()
        },
      })
      const response = await fetch(`${app.url}/plants`, {
        method: 'POST',
        headers: { Authorization: 'Bearer test-token-0123456789abcdef', 'Content-Type': 'application/json' },
        body: chunks,
        duplex: 'half',
      } as RequestInit)
      await expectErrorDocument(response, 413)
    })
  })

  describe('when the store is full', function () {
    it('answers 507 to a new plant at the default bound, and still 200 to a stored one sent again', async function () {
      this.timeout(30_000)
      // Filled through the port, not over HTTP: the bound is the store's, the answer the app's.
      for (let id = 0n; id < BigInt(DEFAULT_IN_MEMORY_LIMITS.maxPlants); id += 1n) {
        expectRight(await store.insertUnlessExists(plant(id, `Plant ${id}`))())
      }
      const message = await expectErrorDocument(await postPlant(app.url, '{"id":-1,"name":"One too many"}'), 507)
      expect(message).to.include(`${DEFAULT_IN_MEMORY_LIMITS.maxPlants} plants`)
      expect(store.find(-1n)).to.equal(undefined)
      await expectPlant(await postPlant(app.url, '{"id":7,"name":"Plant 7"}'), { name: 'Plant 7' })
      await expectErrorDocument(await postPlant(app.url, '{"id":7,"name":"Another"}'), 409)
    })
  })

  describe('when storage fails', function () {
    it('answers 503 when storage is unavailable, with no internals in the message', async function () {
      const down: PlantStore = {
        insertUnlessExists: () => TE.left({ _tag: 'StorageUnavailable', cause: new Error('connect ECONNREFUSED 10.0.0.1') }),
        checkReady: () => TE.left({ _tag: 'StorageUnavailable', cause: new Error('down') }),
      }
      await app.restart({ plantStore: down })
      const message = await expectErrorDocument(await postPlant(app.url, '{"id":1,"name":"x"}'), 503)
      expect(message).to.not.include('ECONNREFUSED')
    })

    it('answers 500 with a generic message when something unexpected throws', async function () {
      const broken: PlantStore = {
        insertUnlessExists: () => () => Promise.reject(new TypeError('cannot read properties of undefined (secret)')),
        checkReady: () => TE.right(undefined),
      }
      await app.restart({ plantStore: broken })
      const message = await expectErrorDocument(await postPlant(app.url, '{"id":1,"name":"x"}'), 500)
      expect(message).to.not.match(/secret|TypeError|at /)
      const logged = app.log.lines.find((line) => line['status'] === 500)
      expect(JSON.stringify(logged)).to.include('cannot read properties of undefined')
    })
  })
})
