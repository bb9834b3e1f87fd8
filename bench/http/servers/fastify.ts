// Reference: Fastify 5 with a JSON schema for the body and the answer.
import Fastify from 'fastify'
import { errorBody, HOST, isAuthorized, makeReferenceStore, readSettings } from './reference-kit.js'

const { port, token, bodyLimitBytes } = readSettings(process.env)
const store = makeReferenceStore()

const app = Fastify({ logger: false, bodyLimit: bodyLimitBytes })
// JSON only, as the others: Fastify also parses text/plain by default.
app.removeContentTypeParser('text/plain')

app.addHook('onRequest', async (request, reply) => {
  if (!isAuthorized(request.headers.authorization, token)) {
    return reply.code(401).type('application/json').send(errorBody(401, 'Send a valid token.'))
  }
  return undefined
})

app.post<{ Body: { id: number; name: string; tag?: string } }>(
  '/plants',
  {
    schema: {
      body: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string' } },
      },
      response: {
        200: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string' } } },
      },
    },
  },
  async (request, reply) => {
    const stored = store(request.body)
    if (stored === undefined) return reply.code(409).type('application/json').send(errorBody(409, 'Another plant has this id.'))
    return stored
  },
)

await app.listen({ port, host: HOST })
