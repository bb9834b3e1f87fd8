import { expect } from 'chai'
import fc from 'fast-check'
import { gzipSync } from 'node:zlib'
import { postPlant, useTestApp } from '../../../../support/http-app.js'
import { cpuMillisecondsOf, hostileJson, longestZeroRun } from '../../../../support/hostile-json.js'
import { expectErrorDocument } from '../../../../support/responses.js'
import { propertyRuns } from '../../../../support/property-runs.js'

// The client and the server share this process, so the bound covers both ends of a request; a
// normal request costs a few milliseconds of it, the quadratic number reader cost 3.6 s.
const CPU_BOUND_MS = 500

const gzipped = (text: string): Uint8Array => new Uint8Array(gzipSync(text))

describe('POST /plants with hostile bodies', function () {
  this.timeout(60_000)
  const app = useTestApp()

  for (const [label, ignored, reason] of [
    ['1.000…0001 with 65,500 zeros', longestZeroRun, 'the request body holds a number longer than 100 characters'],
    ['an array nested 30,000 deep', `${'['.repeat(30_000)}${']'.repeat(30_000)}`, 'the request body is nested deeper than 32 levels'],
  ] as const) {
    it(`answers 400 within the CPU bound to ${label} in an ignored field, gzipped to a few hundred bytes`, async function () {
      const body = gzipped(`{"id":1,"name":"x","ignored":${ignored}}`)
      expect(body.length).to.be.below(400)
      let message = ''
      const ms = await cpuMillisecondsOf(async () => {
        message = await expectErrorDocument(await postPlant(app.url, body, { 'Content-Encoding': 'gzip' }), 400)
      })
      expect(message).to.equal(`Send a JSON object: ${reason}.`)
      expect(ms, 'CPU ms').to.be.below(CPU_BOUND_MS)
    })
  }

  it('answers every pathological body, gzipped, with 200 or an Error document within the CPU bound', async function () {
    await fc.assert(
      fc.asyncProperty(hostileJson, async (text) => {
        const body = gzipped(text)
        let status = 0
        const ms = await cpuMillisecondsOf(async () => {
          const response = await postPlant(app.url, body, { 'Content-Encoding': 'gzip' })
          status = response.status
          if (status !== 200) await expectErrorDocument(response, 400)
          else await response.arrayBuffer()
        })
        expect(ms, `CPU ms for ${JSON.stringify(text.slice(0, 30))}… (${text.length} characters)`).to.be.below(CPU_BOUND_MS)
      }),
      { numRuns: propertyRuns(30) },
    )
  })

  it('takes the JSON limits it is given', async function () {
    await app.restart({ jsonLimits: { maxNumberLength: 3, maxDepth: 1 } })
    await expectErrorDocument(await postPlant(app.url, '{"id":1000,"name":"x"}'), 400)
    await expectErrorDocument(await postPlant(app.url, '{"id":1,"name":"x","a":[]}'), 400)
    expect((await postPlant(app.url, '{"id":100,"name":"x"}')).status).to.equal(200)
  })
})
