import type { PlantId } from './plant.js'

/**
 * One reason an input was refused: where (a field path such as `tag`), what was expected, and
 * `missing` when nothing stood there at all, so a message can say the field is missing rather
 * than wrong.
 */
export interface Violation {
  readonly path: string
  readonly expected: string
  readonly missing?: true
}

/** The input does not describe a NewPlant. */
export interface InvalidInput {
  readonly _tag: 'InvalidInput'
  readonly violations: ReadonlyArray<Violation>
}

/** A plant with this id already stands in the store and says something else. */
export interface PlantConflict {
  readonly _tag: 'PlantConflict'
  readonly id: PlantId
}

/**
 * No credential was presented (`Missing`), the one presented is not accepted (`Invalid`), or it
 * is signed with a key the authority does not hold (`UnknownKey`: a forgery, or a key rotated in
 * that the service has not learnt yet). `detail` says why in words fit for the client; it never
 * contains the credential. `cause`, for the log only, says at most a bounded excerpt of what the
 * client sent.
 */
export interface Unauthenticated {
  readonly _tag: 'Unauthenticated'
  readonly reason: 'Missing' | 'Invalid' | 'UnknownKey'
  readonly detail: string
  readonly cause?: unknown
}

/** The credential is valid but does not grant the scope this operation requires. */
export interface InsufficientScope {
  readonly _tag: 'InsufficientScope'
  readonly requiredScope: string
}

/** The authority that vouches for credentials (such as a key set) cannot be reached now. */
export interface AuthenticationUnavailable {
  readonly _tag: 'AuthenticationUnavailable'
  readonly cause: unknown
}

/** Storage cannot be reached, or did not answer in time; the request may be retried. */
export interface StorageUnavailable {
  readonly _tag: 'StorageUnavailable'
  readonly cause: unknown
  /**
   * Set when storage refuses the service's own configuration (a credential, a privilege, a
   * durability setting), in words for an operator: no retry succeeds until it is corrected.
   */
  readonly configurationFault?: string
}

/**
 * The store holds as much as it is allowed to: a new plant cannot be added. Plants already
 * stored stay as they are and can still be asked for again (a replay is answered).
 */
export interface StorageFull {
  readonly _tag: 'StorageFull'
  /** The bound that was reached, in words fit for the client (e.g. "100000 plants"). */
  readonly limit: string
}

export type AuthError = Unauthenticated | InsufficientScope | AuthenticationUnavailable

/** What a store may answer instead of storing a plant. */
export type StoreError = StorageUnavailable | StorageFull

export type CreatePlantError = InvalidInput | PlantConflict | StoreError

/** Every error the domain reports as a value: authentication's and creation's. */
export type DomainError = AuthError | CreatePlantError

/**
 * A NewPlant that breaks its rules, with each violation a client can act on.
 *
 * @example
 * ```ts
 * import { invalidInput } from 'plant-store/core'
 *
 * const error = invalidInput([{ path: 'name', expected: 'a string', missing: true }])
 * ```
 */
export const invalidInput = (violations: ReadonlyArray<Violation>): InvalidInput => ({
  _tag: 'InvalidInput',
  violations,
})

/**
 * Another plant already stands under this id.
 *
 * @example
 * ```ts
 * import { plantConflict, type NewPlant } from 'plant-store/core'
 *
 * const conflictWith = (plant: NewPlant) => plantConflict(plant.id)
 * ```
 */
export const plantConflict = (id: PlantId): PlantConflict => ({ _tag: 'PlantConflict', id })

/**
 * A token that is missing, not accepted, or signed with a key the authenticator does not know.
 *
 * @example
 * ```ts
 * import * as TE from 'fp-ts/lib/TaskEither.js'
 * import { unauthenticated, type Authenticator } from 'plant-store/core'
 *
 * const acceptsNobody: Authenticator = { verify: () => TE.left(unauthenticated('Invalid', 'This service accepts no token.')) }
 * ```
 */
export const unauthenticated = (reason: Unauthenticated['reason'], detail: string, cause?: unknown): Unauthenticated => ({
  _tag: 'Unauthenticated',
  reason,
  detail,
  ...(cause === undefined ? {} : { cause }),
})

/**
 * A token accepted for its owner, without the scope the operation requires.
 *
 * @example
 * ```ts
 * import * as TE from 'fp-ts/lib/TaskEither.js'
 * import { insufficientScope, type Authenticator } from 'plant-store/core'
 *
 * const readOnly: Authenticator = { verify: () => TE.left(insufficientScope('plants:write')) }
 * ```
 */
export const insufficientScope = (requiredScope: string): InsufficientScope => ({
  _tag: 'InsufficientScope',
  requiredScope,
})

/**
 * The identity provider could not be asked, so the token could not be checked now.
 *
 * @example
 * ```ts
 * import * as TE from 'fp-ts/lib/TaskEither.js'
 * import { authenticationUnavailable } from 'plant-store/core'
 *
 * const introspected = TE.tryCatch(() => fetch('https://id.example.com/introspect'), authenticationUnavailable)
 * ```
 */
export const authenticationUnavailable = (cause: unknown): AuthenticationUnavailable => ({
  _tag: 'AuthenticationUnavailable',
  cause,
})

/**
 * Storage did not answer: the plant may or may not be stored.
 *
 * @example
 * ```ts
 * import * as TE from 'fp-ts/lib/TaskEither.js'
 * import { storageUnavailable } from 'plant-store/core'
 *
 * const pinged = TE.tryCatch(() => fetch('http://storage.internal/ping'), storageUnavailable)
 * ```
 */
export const storageUnavailable = (cause: unknown): StorageUnavailable => ({
  _tag: 'StorageUnavailable',
  cause,
})

/**
 * Storage refuses the service's configuration: `fault` says what an operator must correct.
 *
 * @example
 * ```ts
 * import { storageMisconfigured } from 'plant-store/core'
 *
 * const error = storageMisconfigured('the database user may not insert into plants', new Error('not authorized'))
 * ```
 */
export const storageMisconfigured = (fault: string, cause: unknown): StorageUnavailable => ({
  _tag: 'StorageUnavailable',
  cause,
  configurationFault: fault,
})

/**
 * Storage holds as much as it may: no new plant can be stored.
 *
 * @example
 * ```ts
 * import { storageFull } from 'plant-store/core'
 *
 * const error = storageFull('100000 plants')
 * ```
 */
export const storageFull = (limit: string): StorageFull => ({ _tag: 'StorageFull', limit })
