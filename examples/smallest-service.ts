// The README's smallest embedding, verbatim: the HTTP API from its two ports, every other option
// left to its default; test/e2e/package-install.test.ts compiles it against the packed package.
import { createHttpApp, createHttpServer } from 'plant-store/adapters/http'
import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'

const plantStore = makeInMemoryPlantStore()
const authenticator = makeStaticTokenAuthenticator([process.env['TOKEN'] ?? 'my-static-token-0123456789'])
const app = createHttpApp({ plantStore, authenticator }) // POST /plants, 64 KiB bodies, warnings on the console
createHttpServer(app).listen(Number(process.env['PORT'] ?? 3000), '127.0.0.1')
