// The public surface of the HTTP client, `plant-store/client`, named export by export.
export { createPlantStoreClient } from './client.js'
export type { PlantStoreClient, PlantStoreClientOptions, PlantStorePromiseClient } from './client.js'
export type {
  PlantStoreClientError,
  RetryAfter,
  ServiceError,
  TransportFailure,
  UnavailableCause,
  UnexpectedResponse,
} from './client-errors.js'
