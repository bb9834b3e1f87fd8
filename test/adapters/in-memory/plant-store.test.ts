import { expect } from 'chai'
import { plant } from '../../support/plants.js'
import { makeInMemoryPlantStore } from '../../../adapters/in-memory/plant-store.js'
import { plantStoreContract } from '../../contract/plant-store.contract.js'

plantStoreContract('in-memory', async () => ({
  store: makeInMemoryPlantStore(),
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
})
