// Reference: the minimal Koa 3 handler, with @koa/router and koa-bodyparser.
import Router from '@koa/router'
import Koa from 'koa'
import bodyParser from 'koa-bodyparser'
import { errorBody, HOST, isAuthorized, isNewPlant, makeReferenceStore, readSettings } from './reference-kit.js'

const { port, token, bodyLimitBytes } = readSettings(process.env)
const store = makeReferenceStore()

const refuse = (ctx: Koa.Context, status: number, message: string): void => {
  ctx.status = status
  ctx.type = 'application/json'
  ctx.body = errorBody(status, message)
}

const router = new Router()
router.post(
  '/plants',
  async (ctx, next) => {
    if (!isAuthorized(ctx.get('Authorization'), token)) return refuse(ctx, 401, 'Send a valid token.')
    if (ctx.is('application/json') === false) return refuse(ctx, 415, 'Send application/json.')
    await next()
  },
  bodyParser({ enableTypes: ['json'], jsonLimit: String(bodyLimitBytes), strict: true }),
  (ctx) => {
    const value: unknown = ctx.request.body
    if (!isNewPlant(value)) return refuse(ctx, 400, 'Invalid NewPlant.')
    const stored = store(value)
    if (stored === undefined) return refuse(ctx, 409, 'Another plant has this id.')
    ctx.body = stored
  },
)

const app = new Koa()
app.use(router.routes())
app.listen(port, HOST)
