import type { InMemoryPlantStore } from '../../adapters/in-memory/index.js'
import * as E from 'fp-ts/lib/Either.js'
import { authenticate, BearerToken, type Identity, type NewPlant, type Principal } from '../../core/index.js'
import { authenticatorAnswering } from '../../testing/index.js'
import { expectRight } from './either.js'

// The port fakes the kit ships (plant-store/testing), and what only these tests need beside them.
export { authenticatorAnswering, unavailablePlantStore } from '../../testing/index.js'

/** A BearerToken built through its codec, as the HTTP adapter would hand it over. */
export const bearerToken = (text: string): BearerToken => expectRight(BearerToken.decode(text))

/** A Principal minted the only legitimate way: by `authenticate` accepting a token. */
export const principalFor = async (identity: Identity): Promise<Principal> =>
  expectRight(await authenticate({ authenticator: authenticatorAnswering(E.right(identity)) })(bearerToken('t0k3n'))())

/** What an in-memory store holds under an id, read without changing it. */
export const storedUnder = async (store: InMemoryPlantStore, id: bigint): Promise<NewPlant | undefined> =>
  Promise.resolve(store.find(id))
