export { makeInMemoryPlantStore } from './plant-store.js'
export type { InMemoryPlantStore } from './plant-store.js'
