// The public surface of the MongoDB storage adapter, named export by export.
export { DEFAULT_MONGO_TIMEOUTS } from './client-options.js'
export type { MongoTimeouts } from './client-options.js'
export type { InvalidMongoSettings } from './connection.js'
export { openMongoPlantStore } from './open-plant-store.js'
export type { MongoPlantStore, MongoPlantStoreSettings } from './open-plant-store.js'
