// The README's example of running the storage contract under node:test, verbatim.
import { describe, it } from 'node:test'
import { registerWithNodeTest } from 'plant-store/testing/node-test'
import { mapStoreContract } from './own-storage-adapter.js'

// node --test: one test per rule; a case that cannot run here is skipped with its reason.
registerWithNodeTest({ describe, it }, mapStoreContract)
