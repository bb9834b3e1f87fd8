// The public surface of the MongoDB storage adapter, named export by export.
export { DEFAULT_MONGO_TIMEOUTS } from './client-options.js'
export type { MongoTimeouts } from './client-options.js'
export type { InvalidMongoSettings } from './connection.js'
export { openMongoPlantStore } from './open-plant-store.js'
export { MAX_PLANT_BODY_BYTES } from './plant-document.js'
export type { MongoPlantStore, MongoPlantStoreSettings } from './open-plant-store.js'
