// The README's example of serving the HTTP API from a Koa app of one's own, verbatim;
// test/e2e/package-install.test.ts runs it.
import Koa from 'koa'
import type { AddressInfo } from 'node:net'
import { createHttpApp } from 'plant-store/adapters/http'
import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'

const plants = createHttpApp({
  plantStore: makeInMemoryPlantStore(),
  authenticator: makeStaticTokenAuthenticator([process.env['TOKEN'] ?? 'my-static-token-0123456789']),
  log: console,
  basePath: '/plant-api',
})
const servePlants = plants.callback()

const host = new Koa()
host.use(async (ctx, next) => {
  if (ctx.path === '/hello') return next() // your routes
  ctx.respond = false // Plant Store answers this request itself, body and all
  await servePlants(ctx.req, ctx.res)
})
host.use((ctx) => {
  ctx.body = 'hello from the host Koa app\n'
})

const server = host.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/plant-api`)
})
process.once('SIGTERM', () => {
  server.close()
  server.closeIdleConnections()
})
