// Reference: Koa's own floor. One middleware that reads the body and answers a fixed plant: no
// router, no body parser, no checks. Nothing built on Koa answers a POST for less.
import Koa from 'koa'
import { once } from 'node:events'
import { HOST, readSettings } from './reference-kit.js'

const { port } = readSettings(process.env)
const ANSWER = JSON.stringify({ name: 'Plant', tag: 'bench' })

const app = new Koa()
app.use(async (ctx) => {
  // The body is read, as any handler of a POST must, and not looked at.
  ctx.req.resume()
  await once(ctx.req, 'end')
  ctx.type = 'application/json'
  ctx.body = ANSWER
})
app.listen(port, HOST)
