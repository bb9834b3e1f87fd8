import { expect } from 'chai'
import fc from 'fast-check'
import { WellFormedString } from '../../../../../core/index.js'
import { openApiDocument } from '../../../../../adapters/http/openapi/document.js'
import { WELL_FORMED } from '../../../../../adapters/http/openapi/path-items.js'
import { startTestApp } from '../../../../support/http-app.js'

// What the served document tells a client, whoever serves it: its own limits as values, no
// setting of the program that embeds the adapter, and every way in that the service answers.
describe('the OpenAPI document as an embedder serves it', function () {
  it('names no variable of the service and states the limit the app runs with', async function () {
    const app = await startTestApp({ bodyLimitBytes: 1000, basePath: '/api' })
    try {
      const text = await (await fetch(`${app.url}/openapi.json`)).text()
      for (const variable of ['BODY_LIMIT', 'IN_MEMORY_MAX', 'BASE_PATH', 'PLANT_STORE_TOKENS', 'MONGODB_', 'JWT_']) {
        expect(text, variable).not.to.include(variable)
      }
      const document = JSON.parse(text) as ReturnType<typeof openApiDocument>
      const tooLarge = JSON.stringify(document.components.responses['PayloadTooLarge'])
      expect(tooLarge).to.include('1000 bytes')
      expect(tooLarge).not.to.include('65536')
    } finally {
      await app.close()
    }
  })

  it('declares HEAD wherever GET is served, and the service answers it without a body', async function () {
    const app = await startTestApp()
    try {
      const document = openApiDocument('', { bodyLimitBytes: 1 })
      const gets = Object.entries(document.paths).filter(([, item]) => item.get !== undefined)
      expect(gets.length).to.be.greaterThan(3)
      for (const [path, item] of gets) {
        expect(item.head, path).not.to.equal(undefined)
        const answer = await fetch(`${app.url}${path}`, { method: 'HEAD' })
        expect(answer.status, path).to.equal(200)
        expect(await answer.text(), path).to.equal('')
      }
    } finally {
      await app.close()
    }
  })

  it('serialises the document once, when the app is built, not on each request for it', async function () {
    const app = await startTestApp()
    const stringify = JSON.stringify
    let documentsSerialised = 0
    JSON.stringify = ((...args: Parameters<typeof stringify>) => {
      const [value] = args
      if (typeof value === 'object' && value !== null && 'openapi' in value) documentsSerialised += 1
      return stringify(...args)
    }) as typeof stringify
    try {
      const bodies = new Set<string>()
      for (let request = 0; request < 3; request += 1) bodies.add(await (await fetch(`${app.url}/openapi.json`)).text())
      expect(bodies.size).to.equal(1)
      expect(documentsSerialised).to.equal(0)
    } finally {
      JSON.stringify = stringify
      await app.close()
    }
  })

  it('declares JSON bodies under any +json media type, as the service reads them', function () {
    const content = openApiDocument('', { bodyLimitBytes: 1 }).paths['/plants']?.post?.requestBody
    expect(content).to.have.nested.property('content.application/*+json')
  })

  it('gives a string pattern the same answers with and without the u flag, and the service\'s', function () {
    const withFlag = new RegExp(WELL_FORMED, 'u')
    const withoutFlag = new RegExp(WELL_FORMED)
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (any, graphemes) => {
        for (const text of [any, graphemes, `${graphemes}\ud800`, `\udc00${graphemes}`]) {
          const expected = WellFormedString.is(text)
          expect(withFlag.test(text), JSON.stringify(text)).to.equal(expected)
          expect(withoutFlag.test(text), JSON.stringify(text)).to.equal(expected)
        }
      }),
    )
    expect(withoutFlag.test('\u{1F331} Monstera')).to.equal(true)
    expect(withoutFlag.test('a\ud800b')).to.equal(false)
  })
})
