// The README's example of embedding the core, verbatim; test/e2e/package-install.test.ts runs it.
import * as E from 'fp-ts/lib/Either.js'
import { authenticate, BearerToken, createNewPlant, createPlant, newPlant } from 'plant-store/core'
import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'

const plantStore = makeInMemoryPlantStore()
const authenticator = makeStaticTokenAuthenticator(['service-token-0123456789'])

const token = BearerToken.decode('service-token-0123456789')
if (E.isLeft(token)) throw new Error('not a bearer token')

// A Principal can only come from `authenticate`: createPlant does not compile without one.
const principal = await authenticate({ authenticator })(token.right)()
if (E.isLeft(principal)) throw new Error(principal.left._tag)

// Untrusted input (JSON text read by parseExactJson from plant-store/json, every int64 exact; a
// queue message) goes to createPlant, which parses it once. Ids are bigints: JSON.parse rounds.
const created = await createPlant({ plantStore })(principal.right, { id: 9007199254740993n, name: 'Monstera' })()
if (E.isRight(created)) console.log(created.right) // { name: 'Monstera' }
else console.log(created.left._tag) // 'InvalidInput' | 'PlantConflict' | 'StorageUnavailable' | 'StorageFull'

// Typed fields from your own code: newPlant checks what the types cannot (the int64 range, lone
// surrogates), and createNewPlant can then fail only with PlantConflict,
// StorageUnavailable or StorageFull.
const fern = newPlant({ id: 9223372036854775807n, name: 'Fern', tag: 'fern' })
if (E.isLeft(fern)) throw new Error(fern.left.violations.map((v) => `${v.path} must be ${v.expected}`).join('; '))
const stored = await createNewPlant({ plantStore })(principal.right, fern.right)()
console.log(E.isRight(stored) ? stored.right : stored.left._tag) // { name: 'Fern', tag: 'fern' }
