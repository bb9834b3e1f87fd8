// A consumer of the core alone, type-checked by test/e2e/package-install.test.ts with no @types
// at all (no Node globals): the core's declarations need nothing but fp-ts and io-ts.
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as root from 'plant-store'
import {
  authenticate,
  BearerToken,
  createPlant,
  firstAccepting,
  newPlant,
  unauthenticated,
  type Authenticator,
  type CreatePlantError,
  type DomainError,
  type NewPlant,
  type Plant,
  type PlantStore,
  type Principal,
} from 'plant-store/core'

// A port implemented by the embedder, in a few lines.
const plants = new Map<bigint, NewPlant>()
const plantStore: PlantStore = {
  insertUnlessExists: (plant) =>
    TE.fromIO(() => {
      const stored = plants.get(plant.id)
      if (stored !== undefined) return { _tag: 'AlreadyStored', stored }
      plants.set(plant.id, plant)
      return { _tag: 'Inserted', plant }
    }),
  checkReady: () => TE.right(undefined),
}
const refuseAll: Authenticator = { verify: () => TE.left(unauthenticated('Invalid', 'no')) }
const acceptAll: Authenticator = { verify: () => TE.right({ subject: 'embedder', scopes: [] }) }

// @ts-expect-error a Principal cannot be made up: only `authenticate` mints one
const forged: Principal = { subject: 'x', scopes: [] }

export const run = (text: string): TE.TaskEither<DomainError, Plant> =>
  pipe(
    TE.fromEither(E.mapLeft(() => unauthenticated('Invalid', 'not a bearer token'))(BearerToken.decode(text))),
    TE.flatMap(authenticate({ authenticator: firstAccepting([refuseAll, acceptAll]) })),
    TE.flatMap((principal) => createPlant({ plantStore })(principal, { id: 1n, name: 'x' })),
  )

export const checked: E.Either<CreatePlantError, NewPlant> = newPlant({ id: root.INT64_MAX, name: 'y' })
export const unused = forged
