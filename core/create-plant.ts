import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { pipe } from 'fp-ts/lib/function.js'
import { invalidInput, plantConflict, type CreatePlantError } from './errors.js'
import { isSamePlant, NewPlant, toPlant, type Plant } from './plant.js'
import type { InsertOutcome, PlantStore } from './ports/plant-store.js'
import type { Principal } from './principal.js'
import { toViolations } from './violations.js'

export interface CreatePlantDeps {
  readonly plantStore: PlantStore
}

/** Parses untrusted input into a NewPlant, or says every field that is wrong. */
export const decodeNewPlant = (input: unknown): E.Either<CreatePlantError, NewPlant> =>
  pipe(
    NewPlant.decode(input),
    E.mapLeft((errors) => invalidInput(toViolations(errors))),
  )

/**
 * Creates a plant on behalf of an authenticated principal. Creating the same plant again is a
 * replay and answers the stored plant; another plant under a taken id is a `PlantConflict`.
 */
export const createPlant =
  ({ plantStore }: CreatePlantDeps) =>
  (_principal: Principal, input: unknown): TE.TaskEither<CreatePlantError, Plant> =>
    pipe(
      // Decoding waits until the task runs: building a TaskEither does no work.
      TE.fromIOEither(() => decodeNewPlant(input)),
      TE.flatMap((plant) =>
        pipe(
          plantStore.insertUnlessExists(plant),
          TE.flatMapEither((outcome) => settle(plant, outcome)),
        ),
      ),
    )

const settle = (requested: NewPlant, outcome: InsertOutcome): E.Either<CreatePlantError, Plant> => {
  switch (outcome._tag) {
    case 'Inserted':
      return E.right(toPlant(outcome.plant))
    case 'AlreadyStored':
      return isSamePlant(requested, outcome.stored)
        ? E.right(toPlant(outcome.stored))
        : E.left(plantConflict(requested.id))
  }
}
