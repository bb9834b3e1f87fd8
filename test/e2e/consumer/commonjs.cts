// A CommonJS consumer (require() of this ESM package, Node 20.19 or newer), type-checked and run
// by test/e2e/package-install.test.ts.
/* eslint-disable @typescript-eslint/no-require-imports -- this file is a CommonJS consumer, on purpose */
import core = require('plant-store/core')
import inMemory = require('plant-store/adapters/in-memory')

const plant = core.newPlant({ id: 9223372036854775807n, name: 'Monstera' })
const store = inMemory.makeInMemoryPlantStore()
console.log(plant._tag, typeof core.createPlant, typeof store.insertUnlessExists)
