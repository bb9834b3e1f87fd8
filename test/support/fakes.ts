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
import { plant } from './plants.js'

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

/**
 * What the store holds under `id`, read through the port: a probe insert reports the plant that
 * stands there, or `undefined` when the id was free. The probe then occupies a free id, so call
 * this only after everything else a test does with the store.
 */
export const storedUnder = async (store: PlantStore, id: bigint): Promise<NewPlant | undefined> => {
  const outcome = expectRight(await store.insertUnlessExists(plant(id, 'storedUnder probe'))())
  return outcome._tag === 'AlreadyStored' ? outcome.stored : undefined
}
