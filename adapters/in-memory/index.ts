export { DEFAULT_IN_MEMORY_LIMITS, estimatedBytes, makeInMemoryPlantStore } from './plant-store.js'
export type { InMemoryLimits, InMemoryPlantStore } from './plant-store.js'
