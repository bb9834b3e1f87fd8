// Reference for the production path: Koa with one middleware calling the official driver's
// insertOne, with the service's durability: write concern majority and journaled, the id stored
// as an int64 `_id` (a Long), and after a duplicate key a majority read of what the id holds.
import Koa from 'koa'
import { Long, MongoClient, MongoServerError } from 'mongodb'
import { errorBody, HOST, isAuthorized, isNewPlant, readSettings, type ReferencePlant } from './reference-kit.js'

const { port, token, bodyLimitBytes } = readSettings(process.env)
const uri = process.env['MONGODB_URI']
if (uri === undefined) {
  process.stderr.write('koa-mongodb reference: MONGODB_URI must be set by the harness\n')
  process.exit(1)
}
const client = new MongoClient(uri, { writeConcern: { w: 'majority', journal: true } })
await client.connect()
const plants = client.db('plant_store').collection<{ _id: Long; name: string; tag?: string }>('plants')

const readBody = async (ctx: Koa.Context): Promise<string | undefined> => {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > bodyLimitBytes) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

const refuse = (ctx: Koa.Context, status: number, message: string): void => {
  ctx.status = status
  ctx.type = 'application/json'
  ctx.body = errorBody(status, message)
}

const app = new Koa()
app.use(async (ctx) => {
  if (ctx.method !== 'POST' || ctx.path !== '/plants') return refuse(ctx, 404, 'Not found.')
  if (!isAuthorized(ctx.get('Authorization'), token)) return refuse(ctx, 401, 'Send a valid token.')
  if (ctx.is('application/json') === false) return refuse(ctx, 415, 'Send application/json.')
  const text = await readBody(ctx)
  if (text === undefined) return refuse(ctx, 413, 'Too large.')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return refuse(ctx, 400, 'Invalid JSON.')
  }
  if (!isNewPlant(value)) return refuse(ctx, 400, 'Invalid NewPlant.')
  const plant: ReferencePlant = value.tag === undefined ? { name: value.name } : { name: value.name, tag: value.tag }
  const _id = Long.fromNumber(value.id)
  try {
    await plants.insertOne({ _id, ...plant })
    ctx.body = plant
  } catch (error) {
    if (!(error instanceof MongoServerError) || error.code !== 11000) throw error
    const stored = await plants.findOne({ _id }, { readConcern: { level: 'majority' } })
    if (stored !== null && stored.name === plant.name && stored.tag === plant.tag) ctx.body = plant
    else refuse(ctx, 409, 'Another plant has this id.')
  }
})
app.listen(port, HOST)
