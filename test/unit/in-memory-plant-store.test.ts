import { makeInMemoryPlantStore } from '../../adapters/in-memory/plant-store.js'
import { plantStoreContract } from '../contract/plant-store.contract.js'

plantStoreContract('in-memory', async () => ({
  store: makeInMemoryPlantStore(),
  release: async () => {},
}))
