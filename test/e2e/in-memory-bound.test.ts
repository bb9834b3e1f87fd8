import { expect } from 'chai'
import { gzipSync } from 'node:zlib'
import { useServiceProcesses } from '../support/service-process.js'
import { expectErrorDocument, expectPlant } from '../support/responses.js'

const TOKEN = 'e2e-token-0123456789abcdef'

// Unbounded, 64 KiB names, about 130 bytes each on the wire once gzipped, took a
// 256 MiB heap down after 2,892 plants, and every plant with it.
describe('the service on in-memory storage, with a bound', function () {
  this.timeout(60_000)
  const startService = useServiceProcesses()

  it('answers 507 at the byte bound IN_MEMORY_MAX_PLANTS sets, stays alive on a small heap, and keeps every acknowledged plant', async function () {
    const service = startService({
      PLANT_STORE_TOKENS: TOKEN,
      // 64 MiB per 100,000 plants: a 16 MiB bound, which plants of 60,000 characters reach first.
      IN_MEMORY_MAX_PLANTS: '25000',
      NODE_OPTIONS: '--max-old-space-size=96',
    })
    const url = await service.listening
    const name = 'n'.repeat(60_000)
    const post = (id: number, plantName = name) =>
      fetch(`${url}/plants`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
        body: gzipSync(JSON.stringify({ id, name: plantName })),
      })

    const acknowledged: number[] = []
    let refusals = 0
    for (let id = 1; id <= 400 && refusals < 20; id += 1) {
      const response = await post(id)
      if (response.status === 200) {
        await response.arrayBuffer()
        acknowledged.push(id)
      } else {
        const message = await expectErrorDocument(response, 507)
        expect(message).to.match(/full/i)
        refusals += 1
      }
    }
    expect(refusals, 'refusals at the bound').to.equal(20)
    // 16 MiB at 2 bytes a character: at most 139 plants of 60,000 characters.
    expect(acknowledged.length).to.be.within(100, 139)

    expect((await fetch(`${url}/healthz`)).status).to.equal(200)
    for (const id of acknowledged) await expectPlant(await post(id), { name })
    await expectErrorDocument(await post(acknowledged[0] ?? 1, 'another name'), 409)
    expect(service.child.exitCode).to.equal(null)
  })
})
