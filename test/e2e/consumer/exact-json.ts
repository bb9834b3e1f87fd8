// An embedder that reads JSON from somewhere other than HTTP (a queue message, a file), run by
// test/e2e/package-install.test.ts where neither koa nor any other HTTP library is installed:
// plant-store/json needs lossless-json alone, and keeps an id beyond 2^53 exact.
import * as E from 'fp-ts/lib/Either.js'
import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
import { authenticate, BearerToken, createPlant } from 'plant-store/core'
import { parseExactJson } from 'plant-store/json'

const plantStore = makeInMemoryPlantStore()
const token = BearerToken.decode('queue-token-0123456789')
if (E.isLeft(token)) throw new Error('not a bearer token')
const principal = await authenticate({ authenticator: makeStaticTokenAuthenticator(['queue-token-0123456789']) })(token.right)()
if (E.isLeft(principal)) throw new Error(principal.left._tag)

const message = '{"id": 9007199254740993, "name": "Monstera"}'
const input = parseExactJson(message)
if (E.isLeft(input)) throw new Error(input.left)
const created = await createPlant({ plantStore })(principal.right, input.right)()
if (E.isLeft(created)) throw new Error(created.left._tag)
console.log(`stored ${plantStore.find(9007199254740993n)?.name ?? 'nothing'} under 9007199254740993`)
// JSON.parse rounds the id to 9007199254740992, a number, which the core refuses.
const rounded = await createPlant({ plantStore })(principal.right, JSON.parse(message))()
console.log(E.isLeft(rounded) ? rounded.left._tag : 'stored a rounded id')
