// The README's example of running the storage contract under mocha, verbatim.
import { describe, it } from 'mocha'
import { registerWithMocha } from 'plant-store/testing/mocha'
import { mapStoreContract } from './own-storage-adapter.js'

// npx mocha: one test per rule; a case that cannot run here is pending, its reason in its title.
registerWithMocha({ describe, it }, mapStoreContract)
