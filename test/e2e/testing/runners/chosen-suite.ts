import { makeInMemoryPlantStore } from '../../../../adapters/in-memory/index.js'
import { brokenPlantStores, correctMapStore, plantStoreContract, type ContractSuite } from '../../../../testing/index.js'

// The suite a runner fixture registers, named by STORE: a correct store that can be cut off, the
// in-memory adapter with no way to cut it off (its unavailability case cannot run), or a broken
// store the kit ships.
const store = process.env['STORE'] ?? 'correct'
const broken = brokenPlantStores[store]

export const chosenSuite: ContractSuite =
  store === 'correct'
    ? plantStoreContract('correct', correctMapStore)
    : store === 'no-cut-off'
      ? plantStoreContract('no-cut-off', async () => ({ store: makeInMemoryPlantStore(), release: async () => undefined }))
      : plantStoreContract(store, broken?.fixture ?? (() => Promise.reject(new Error(`no store named ${store}`))))
