// The servers the benchmark compares: the references in servers/, and the service as `npm start`
// starts it (node on dist/apps/server/main.js, in-memory storage, one static token, request log on).
import { join } from 'node:path'
import type { ServerKey } from './options.js'
import { startMongoPeer, startServer, type ServerProcess } from './processes.js'

/** The one token every server accepts, passed as the service takes it. */
export const TOKEN = 'bench-token-0123456789abcdef'

const SERVICE_MAIN = 'dist/apps/server/main.js'

export interface ServerUnderTest {
  readonly key: ServerKey
  readonly label: string
  /** A fresh process; `run` names the round and purpose, for the log file. */
  readonly start: (run: string) => Promise<ServerProcess>
}

export interface Where {
  readonly referencesDir: string
  readonly logDir: string | undefined
  readonly serviceEnv: Readonly<Record<string, string>>
}

const LABELS: Record<ServerKey, string> = {
  'node-http': 'bare `node:http`',
  fastify: 'Fastify 5 with a JSON schema',
  koa: 'Koa 3 + @koa/router + koa-bodyparser, minimal handler',
  express: 'Express 5 + `express.json()`',
  service: '**this service** (in memory, request log on)',
  'service-mongodb': 'this service, MongoDB storage on the wire peer',
}

const BENCH_STORE_BOUND = { IN_MEMORY_MAX_PLANTS: '20000000', IN_MEMORY_MAX_BYTES: '8gb' }

export const serverUnderTest = (key: ServerKey, where: Where): ServerUnderTest => {
  const stdoutPath = (run: string) => (where.logDir === undefined ? '/dev/null' : join(where.logDir, `${key}-${run}.log`))
  const service = (run: string, env: Readonly<Record<string, string>>) =>
    startServer({
      label: LABELS[key],
      nodeArgs: [SERVICE_MAIN],
      // The references keep every plant; the service's in-memory bound (100,000 plants by default)
      // is raised so a fast run or the 10^6 flat-store fill measures storing, not refusing.
      env: { PLANT_STORE_TOKENS: TOKEN, ...BENCH_STORE_BOUND, ...where.serviceEnv, ...env },
      stdoutPath: stdoutPath(run),
    })
  const start = async (run: string): Promise<ServerProcess> => {
    switch (key) {
      case 'service':
        return service(run, {})
      case 'service-mongodb': {
        // The peer is a separate process: its CPU and memory are not the service's, and not counted.
        const peer = await startMongoPeer()
        const server = await service(run, { MONGODB_URI: peer.uri }).catch(async (error: unknown) => {
          await peer.stop()
          throw error
        })
        return {
          ...server,
          stop: async () => {
            await server.stop()
            await peer.stop()
          },
        }
      }
      default:
        return startServer({
          label: LABELS[key],
          nodeArgs: [join(where.referencesDir, `${key}.js`)],
          env: { PLANT_STORE_TOKENS: TOKEN },
          stdoutPath: stdoutPath(run),
        })
    }
  }
  return { key, label: LABELS[key], start }
}
