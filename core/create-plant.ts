import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  invalidInput,
  plantConflict,
  type CreatePlantError,
  type InvalidInput,
  type PlantConflict,
  type StoreError,
} from './errors.js'
import { isSamePlant, NewPlant, toPlant, type Plant } from './plant.js'
import type { InsertOptions, InsertOutcome, PlantStore } from './ports/plant-store.js'
import type { Principal } from './authenticate.js'
import { toViolations } from './violations.js'

export interface CreatePlantDeps {
  readonly plantStore: PlantStore
}

/**
 * Parses untrusted input into a NewPlant, or says every field that is wrong.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { decodeNewPlant } from 'plant-store/core'
 *
 * const parsed = decodeNewPlant({ id: 7n, name: 'Fern', tag: 'outdoor' })
 * if (E.isLeft(parsed)) console.log(parsed.left.violations) // an id sent as a JS number, say
 * ```
 */
export const decodeNewPlant = (input: unknown): E.Either<InvalidInput, NewPlant> => {
  const decoded = NewPlant.decode(input)
  return E.isLeft(decoded) ? E.left(invalidInput(toViolations(decoded.left))) : decoded
}

/** What the fields of a NewPlant may be built from: an id must already be a `bigint`. */
export interface NewPlantFields {
  readonly id: bigint
  readonly name: string
  readonly tag?: string | undefined
}

/**
 * The smart constructor for trusted callers: a NewPlant from typed fields, or `InvalidInput`
 * naming each field that breaks a rule the types cannot state (the int64 range, a lone surrogate).
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { newPlant } from 'plant-store/core'
 *
 * const plant = newPlant({ id: 9007199254740993n, name: 'Monstera deliciosa', tag: 'houseplant' })
 * if (E.isRight(plant)) console.log(plant.right.id) // 9007199254740993n, kept exactly
 * ```
 */
export const newPlant = (fields: NewPlantFields): E.Either<InvalidInput, NewPlant> => decodeNewPlant(fields)

/** What storing an already parsed NewPlant can fail with: its input is valid by its type. */
export type CreateNewPlantError = PlantConflict | StoreError

/**
 * Creates a plant from a NewPlant already parsed (by `newPlant` or `decodeNewPlant`), on behalf
 * of an authenticated principal. Creating the same plant again is a replay and answers the stored
 * plant; another plant under a taken id is a `PlantConflict`. `options` go to storage as they are.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { authenticate, BearerToken } from 'plant-store/core'
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 * import { createNewPlant, newPlant } from 'plant-store/core'
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 *
 * const create = createNewPlant({ plantStore: makeInMemoryPlantStore() })
 * const token = BearerToken.decode('s3cret-token')
 * const plant = newPlant({ id: 1n, name: 'Fern' })
 * if (E.isRight(token) && E.isRight(plant)) {
 *   const principal = await authenticate({ authenticator: makeStaticTokenAuthenticator(['s3cret-token']) })(token.right)()
 *   if (E.isRight(principal)) console.log(await create(principal.right, plant.right)()) // right({ name: 'Fern' })
 * }
 * ```
 */
export const createNewPlant =
  ({ plantStore }: CreatePlantDeps) =>
  (_principal: Principal, plant: NewPlant, options?: InsertOptions): TE.TaskEither<CreateNewPlantError, Plant> => {
    const insert = plantStore.insertUnlessExists(plant, options)
    // One async step, not a pipe of TaskEither combinators: measured (see docs/contributing.md, the hot path).
    return async () => {
      const outcome = await insert()
      return E.isLeft(outcome) ? outcome : settle(plant, outcome.right)
    }
  }

/**
 * Creates a plant from untrusted input on behalf of an authenticated principal: the input is
 * parsed first (`InvalidInput` names every wrong field), then created as `createNewPlant` does.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { authenticate, BearerToken } from 'plant-store/core'
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 * import { createPlant } from 'plant-store/core'
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 *
 * const create = createPlant({ plantStore: makeInMemoryPlantStore() })
 * const token = BearerToken.decode('s3cret-token')
 * if (E.isRight(token)) {
 *   const principal = await authenticate({ authenticator: makeStaticTokenAuthenticator(['s3cret-token']) })(token.right)()
 *   // The input is untrusted: parsed first, every wrong field named in an InvalidInput.
 *   if (E.isRight(principal)) console.log(await create(principal.right, { id: 1n, name: 'Fern' })())
 * }
 * ```
 */
export const createPlant = (deps: CreatePlantDeps) => {
  const createNew = createNewPlant(deps)
  return (principal: Principal, input: unknown, options?: InsertOptions): TE.TaskEither<CreatePlantError, Plant> =>
    // Decoding waits until the task runs: building a TaskEither does no work. A defect thrown
    // while decoding rejects the task, as it always has.
    async () => {
      const plant = decodeNewPlant(input)
      return E.isLeft(plant) ? plant : await createNew(principal, plant.right, options)()
    }
}

const settle = (requested: NewPlant, outcome: InsertOutcome): E.Either<CreateNewPlantError, Plant> => {
  switch (outcome._tag) {
    case 'Inserted':
      return E.right(toPlant(outcome.plant))
    case 'AlreadyStored':
      return isSamePlant(requested, outcome.stored)
        ? E.right(toPlant(outcome.stored))
        : E.left(plantConflict(requested.id))
  }
}
