// The public surface of the core, named export by export.
export { authenticate } from './authenticate.js'
export type { AuthenticateDeps, Principal } from './authenticate.js'
export { firstAccepting } from './authenticators.js'
export { BearerToken } from './bearer-token.js'
export type { BearerTokenBrand } from './bearer-token.js'
export { createNewPlant, createPlant, decodeNewPlant, newPlant } from './create-plant.js'
export type { CreateNewPlantError, CreatePlantDeps, NewPlantFields } from './create-plant.js'
export {
  authenticationUnavailable,
  insufficientScope,
  invalidInput,
  plantConflict,
  storageFull,
  storageMisconfigured,
  storageUnavailable,
  unauthenticated,
} from './errors.js'
export type {
  AuthError,
  AuthenticationUnavailable,
  CreatePlantError,
  InsufficientScope,
  InvalidInput,
  PlantConflict,
  DomainError,
  StorageFull,
  StorageUnavailable,
  StoreError,
  Unauthenticated,
  Violation,
} from './errors.js'
export { Int64, INT64_MAX, INT64_MIN } from './int64.js'
export type { Int64Brand } from './int64.js'
export { isSamePlant, NewPlant, Plant, PlantId, PlantName, PlantTag, toPlant } from './plant.js'
export type { Authenticator, Identity } from './ports/authenticator.js'
export type { AbortSignalLike, Cancel, Clock } from './ports/clock.js'
export { delay, repeatEvery } from './ports/clock.js'
export type { Logger } from './ports/logger.js'
export { alreadyStored, inserted } from './ports/plant-store.js'
export type { InsertOptions, InsertOutcome, PlantStore } from './ports/plant-store.js'
export { toViolations } from './violations.js'
export { WellFormedString } from './well-formed-string.js'
export type { WellFormedStringBrand } from './well-formed-string.js'
