// The README's example of a service serving the HTTP API in its own server, verbatim;
// test/e2e/package-install.test.ts runs it and calls it with examples/client.ts.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHttpApp } from 'plant-store/adapters/http'
import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'

const plants = createHttpApp({
  plantStore: makeInMemoryPlantStore(),
  authenticator: makeStaticTokenAuthenticator([process.env['TOKEN'] ?? 'my-static-token-0123456789']),
  log: console, // any { info, warn, error }: one line per request, never a token
  basePath: '/plant-api', // POST /plant-api/plants; /openapi.json, /healthz and /readyz stay at the root
})
const servePlants = plants.callback()

// Your server and your routes; what is not yours goes to Plant Store, which answers 404 itself.
const server = createServer((request, response) => {
  if (request.url === '/hello') response.end('hello from the host service\n')
  else void servePlants(request, response)
})
server.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/plant-api`)
})
process.once('SIGTERM', () => {
  server.close()
  server.closeIdleConnections()
})
