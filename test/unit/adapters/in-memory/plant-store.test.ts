import { expect } from 'chai'
import { plant } from '../../../support/plants.js'
import { expectLeftTag, expectRight } from '../../../support/either.js'
import { estimatedBytes, makeInMemoryPlantStore } from '../../../../adapters/in-memory/plant-store.js'
import { boundedPlantStoreContract, plantStoreContract } from '../../../contract/plant-store.contract.js'

plantStoreContract('in-memory', async () => ({
  store: makeInMemoryPlantStore(),
  release: async () => {},
}))

boundedPlantStoreContract('in-memory, bounded by plants', 5, async () => ({
  store: makeInMemoryPlantStore({ maxPlants: 5 }),
  release: async () => {},
}))

boundedPlantStoreContract('in-memory, bounded by bytes', 5, async () => ({
  store: makeInMemoryPlantStore({ maxBytes: 5 * estimatedBytes(plant(1n, 'p')) }),
  release: async () => {},
}))

describe('in-memory store, beyond the contract', function () {
  it('hands out copies: changing what find or all returns does not change what is stored', async function () {
    const store = makeInMemoryPlantStore()
    await store.insertUnlessExists(plant(1n, 'original'))()
    const seen = store.find(1n) as { name: string }
    seen.name = 'changed by a reader'
    const listed = store.all()[0] as { name: string }
    listed.name = 'changed again'
    expect(store.find(1n)).to.deep.equal(plant(1n, 'original'))
  })

  it('counts the bytes of names and tags: one large plant can fill it, small ones then still fit elsewhere', async function () {
    const store = makeInMemoryPlantStore({ maxBytes: 300_000 })
    expect(expectRight(await store.insertUnlessExists(plant(1n, 'x'.repeat(100_000)))())._tag).to.equal('Inserted')
    expectLeftTag(await store.insertUnlessExists(plant(2n, 'y'.repeat(100_000)))(), 'StorageFull')
    expect(expectRight(await store.insertUnlessExists(plant(3n, 'small'))())._tag).to.equal('Inserted')
    expect(store.all().map((p) => p.id)).to.deep.equal([1n, 3n])
  })

  it('is bounded by default (100000 plants, 64 MiB), so no client can grow it until the process dies', async function () {
    const store = makeInMemoryPlantStore()
    const name = 'n'.repeat(64 * 1024)
    let accepted = 0
    for (let id = 1n; ; id += 1n) {
      const result = await store.insertUnlessExists(plant(id, name))()
      if (result._tag === 'Left') break
      accepted += 1
    }
    expect(accepted).to.be.below((64 * 1024 * 1024) / (2 * name.length) + 1)
    expect(store.all()).to.have.length(accepted)
  })
})
