import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { pipe } from 'fp-ts/lib/function.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import fc from 'fast-check'
import {
  alreadyStored,
  authenticate,
  createPlant,
  decodeNewPlant,
  inserted,
  isSamePlant,
  plantConflict,
  storageFull,
  storageUnavailable,
  toPlant,
  unauthenticated,
  authenticationUnavailable,
  type AuthError,
  type Identity,
  type InsertOutcome,
  type NewPlant,
  type PlantStore,
  type StoreError,
} from '../../../core/index.js'
import { int64, newPlantInput, wellFormedText } from '../../support/arbitraries.js'
import { bearerToken, principalFor } from '../../support/fakes.js'
import { propertyRuns } from '../../support/property-runs.js'

// createPlant, createNewPlant and authenticate are one async step each rather than pipes of
// TaskEither combinators (docs/contributing.md's hot path: the benchmark tells the two apart). Each must
// answer what the composition it stands for answers, on any input and any store or authenticator
// outcome.

/** The composition createPlant stands for. */
const referenceCreatePlant = (plantStore: PlantStore, input: unknown) =>
  pipe(
    TE.fromIOEither(() => decodeNewPlant(input)),
    TE.flatMap((plant) =>
      pipe(
        plantStore.insertUnlessExists(plant),
        TE.flatMapEither((outcome) =>
          outcome._tag === 'Inserted'
            ? E.right(toPlant(outcome.plant))
            : isSamePlant(plant, outcome.stored)
              ? E.right(toPlant(outcome.stored))
              : E.left(plantConflict(plant.id)),
        ),
      ),
    ),
  )

type StoreAnswer = (plant: NewPlant) => E.Either<StoreError, InsertOutcome>

const storeAnswer: fc.Arbitrary<StoreAnswer> = fc.oneof(
  fc.constant<StoreAnswer>((plant) => E.right(inserted(plant))),
  fc.constant<StoreAnswer>((plant) => E.right(alreadyStored(plant))),
  fc
    .tuple(fc.option(wellFormedText, { nil: undefined }), wellFormedText)
    .map(([tag, name]): StoreAnswer => (plant) => E.right(alreadyStored({ ...plant, name, ...(tag === undefined ? {} : { tag }) } as NewPlant))),
  fc.constant<StoreAnswer>(() => E.left(storageUnavailable(new Error('down')))),
  fc.constant<StoreAnswer>(() => E.left(storageFull('10 plants'))),
)

const storeOf = (answer: StoreAnswer): PlantStore => ({
  insertUnlessExists: (plant) => TE.fromEither(answer(plant)),
  checkReady: () => TE.right(undefined),
})

const input = fc.oneof(newPlantInput, fc.record({ id: fc.oneof(int64, fc.integer()), name: fc.anything() }), fc.anything())

describe('the async steps answer as the compositions they stand for', function () {
  it('createPlant, on any input and any store outcome', async function () {
    const principal = await principalFor({ subject: 'gardener', scopes: [] })
    await fc.assert(
      fc.asyncProperty(input, storeAnswer, async (body, answer) => {
        const plantStore = storeOf(answer)
        expect(await createPlant({ plantStore })(principal, body)()).to.deep.equal(await referenceCreatePlant(plantStore, body)())
      }),
      { numRuns: propertyRuns(500) },
    )
  })

  it('authenticate, on any verdict of the authenticator', async function () {
    const verdict: fc.Arbitrary<E.Either<AuthError, Identity>> = fc.oneof(
      fc.record({ subject: wellFormedText, scopes: fc.array(wellFormedText) }).map((identity) => E.right(identity)),
      fc.constant(E.left(unauthenticated('Invalid', 'no'))),
      fc.constant(E.left(authenticationUnavailable(new Error('down')))),
    )
    await fc.assert(
      fc.asyncProperty(verdict, async (answer) => {
        const authenticator = { verify: () => TE.fromEither(answer) }
        const reference = pipe(authenticator.verify(), TE.map(({ subject, scopes }) => ({ subject, scopes })))
        expect(await authenticate({ authenticator })(bearerToken('a-token-of-sixteen-chars'))()).to.deep.equal(await reference())
      }),
    )
  })
})
