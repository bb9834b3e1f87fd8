// The public surface of the Prometheus adapter, named export by export.
export { instrumentAuthenticator } from './instrument-authenticator.js'
export { instrumentPlantStore } from './instrument-plant-store.js'
export { countLogLinesDropped, makePlantStoreMetrics } from './metrics.js'
export type { PlantStoreMetrics } from './metrics.js'
export { metricsRequestHandler } from './metrics-endpoint.js'
export { httpRequestRecorder, keySetFetchRecorder } from './observers.js'
