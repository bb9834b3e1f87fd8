// Reference: Koa doing the service's work in one middleware: the bearer check, the body read
// with its limit, JSON.parse, the NewPlant check, the Map, the answer. No router, no body parser,
// no log: the least a Koa service that really creates plants can cost.
import Koa from 'koa'
import type { IncomingMessage } from 'node:http'
import { errorBody, HOST, isAuthorized, isNewPlant, makeReferenceStore, readSettings } from './reference-kit.js'

const { port, token, bodyLimitBytes } = readSettings(process.env)
const store = makeReferenceStore()

const refuse = (ctx: Koa.Context, status: number, message: string): void => {
  ctx.status = status
  ctx.type = 'application/json'
  ctx.body = errorBody(status, message)
}

/** The body as text, or `undefined` once it passes `limit` bytes; the rest is read and dropped. */
const readBody = (req: IncomingMessage, limit: number): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size <= limit) {
        chunks.push(chunk)
        return
      }
      req.off('data', onData).off('end', onEnd)
      // Drained rather than destroyed: destroying the request would close the socket before the 413.
      req.resume()
      resolve(undefined)
    }
    const onEnd = (): void => resolve(Buffer.concat(chunks, size).toString('utf8'))
    req.on('data', onData).once('end', onEnd).once('error', reject)
  })

const app = new Koa()
// Every request is taken as POST /plants, the only one the load sends: routing is a router's work.
app.use(async (ctx) => {
  if (!isAuthorized(ctx.get('Authorization'), token)) return refuse(ctx, 401, 'Send a valid token.')
  if (ctx.is('application/json') === false) return refuse(ctx, 415, 'Send application/json.')
  const text = await readBody(ctx.req, bodyLimitBytes)
  if (text === undefined) {
    // The client may still be sending what was not read: the connection ends with the answer.
    ctx.set('Connection', 'close')
    return refuse(ctx, 413, 'Body too large.')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return refuse(ctx, 400, 'Malformed JSON.')
  }
  if (!isNewPlant(value)) return refuse(ctx, 400, 'Invalid NewPlant.')
  const stored = store(value)
  if (stored === undefined) return refuse(ctx, 409, 'Another plant has this id.')
  ctx.body = stored
})
app.listen(port, HOST)
