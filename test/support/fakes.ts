import type { InMemoryPlantStore } from '../../adapters/in-memory/index.js'
import * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import {
  authenticate,
  BearerToken,
  storageUnavailable,
  type AuthError,
  type Authenticator,
  type Identity,
  type NewPlant,
  type PlantStore,
  type Principal,
} from '../../core/index.js'
import { expectRight } from './either.js'

/** A store whose storage is down: every call answers StorageUnavailable with the given cause. */
export const unavailablePlantStore = (cause: unknown): PlantStore => ({
  insertUnlessExists: () => TE.left(storageUnavailable(cause)),
  checkReady: () => TE.left(storageUnavailable(cause)),
})

/** An authenticator that answers the same verdict whatever token it is shown. */
export const authenticatorAnswering = (verdict: E.Either<AuthError, Identity>): Authenticator => ({
  verify: () => TE.fromEither(verdict),
})

/** A BearerToken built through its codec, as the HTTP adapter would hand it over. */
export const bearerToken = (text: string): BearerToken => expectRight(BearerToken.decode(text))

/** A Principal minted the only legitimate way: by `authenticate` accepting a token. */
export const principalFor = async (identity: Identity): Promise<Principal> =>
  expectRight(await authenticate({ authenticator: authenticatorAnswering(E.right(identity)) })(bearerToken('t0k3n'))())

/** What an in-memory store holds under an id, read without changing it. */
export const storedUnder = async (store: InMemoryPlantStore, id: bigint): Promise<NewPlant | undefined> =>
  Promise.resolve(store.find(id))
