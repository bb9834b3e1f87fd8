// Reference: Koa's own floor. One middleware that reads the body and answers a fixed plant: no
// router, no body parser, no checks. Nothing built on Koa answers a POST for less.
import Koa from 'koa'
import { HOST, readSettings } from './reference-kit.js'

const { port } = readSettings(process.env)
const ANSWER = JSON.stringify({ name: 'Plant', tag: 'bench' })

const app = new Koa()
app.use(async (ctx) => {
  for await (const _chunk of ctx.req) {
    // The body is read, as any handler of a POST must, and not looked at.
  }
  ctx.type = 'application/json'
  ctx.body = ANSWER
})
app.listen(port, HOST)
