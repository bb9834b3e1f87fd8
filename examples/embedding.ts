// The embedding example of the README, verbatim; test/e2e/embedding.test.ts runs it.
import * as E from 'fp-ts/lib/Either.js'
import { authenticate, createPlant, BearerToken } from 'plant-store/core'
import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'

const plantStore = makeInMemoryPlantStore()
const authenticator = makeStaticTokenAuthenticator(['service-token-0123456789'])

const token = BearerToken.decode('service-token-0123456789')
if (E.isLeft(token)) throw new Error('not a bearer token')

// A Principal can only come from `authenticate`: createPlant does not compile without one.
const principal = await authenticate({ authenticator })(token.right)()
if (E.isLeft(principal)) throw new Error(principal.left._tag)

// Input is untrusted and parsed here, once; ids are bigints (a JS number may already be rounded).
const created = await createPlant({ plantStore })(principal.right, { id: 9007199254740993n, name: 'Monstera' })()
if (E.isRight(created)) console.log(created.right) // { name: 'Monstera' }
else console.log(created.left._tag) // 'InvalidInput' | 'PlantConflict' | 'StorageUnavailable' | 'StorageFull'
