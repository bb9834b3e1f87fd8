// The servers the benchmark compares: the references in servers/, and the service as `npm start`
// starts it (node on dist/apps/server/main.js, one static token, request log on), in memory and
// on MongoDB (the wire peer), each MongoDB server with its own fresh peer.
import { join } from 'node:path'
import type { ServerKey } from './options.js'
import { startMongoPeer, startServer, type ServerProcess } from './processes.js'
import { FRESH, MIXED, type Workload } from './workload.js'

/** The one token every server accepts, passed as the service takes it. */
export const TOKEN = 'bench-token-0123456789abcdef'

const SERVICE_MAIN = 'dist/apps/server/main.js'

export interface ServerUnderTest {
  readonly key: ServerKey
  readonly label: string
  /** What the load sends it. */
  readonly workload: Workload
  /** A fresh process; `run` names the round and purpose, for the log file. */
  readonly start: (run: string) => Promise<ServerProcess>
}

export interface Where {
  readonly referencesDir: string
  readonly logDir: string | undefined
  readonly serviceEnv: Readonly<Record<string, string>>
  /** Cores for the servers and for the wire peer (taskset's lists); absent: not pinned. */
  readonly serverCores?: string | undefined
  readonly peerCores?: string | undefined
}

interface Kind {
  readonly label: string
  readonly workload: Workload
  /** The reference server in servers/ (its file name), or the service. */
  readonly program: 'service' | 'node-http' | 'fastify' | 'koa' | 'koa-same-work' | 'koa-floor' | 'express' | 'koa-mongodb'
  readonly mongodb: boolean
}

const KINDS: Record<ServerKey, Kind> = {
  'node-http': { label: 'bare `node:http`', workload: FRESH, program: 'node-http', mongodb: false },
  fastify: { label: 'Fastify 5 with a JSON schema', workload: FRESH, program: 'fastify', mongodb: false },
  koa: { label: 'Koa 3 + @koa/router + koa-bodyparser, minimal handler', workload: FRESH, program: 'koa', mongodb: false },
  'koa-same-work': { label: "Koa 3 doing the service's work in one middleware", workload: FRESH, program: 'koa-same-work', mongodb: false },
  'koa-floor': { label: "Koa 3's floor: one middleware, a fixed answer", workload: FRESH, program: 'koa-floor', mongodb: false },
  express: { label: 'Express 5 + `express.json()`', workload: FRESH, program: 'express', mongodb: false },
  service: { label: '**this service** (in memory, request log on)', workload: FRESH, program: 'service', mongodb: false },
  'koa-mongodb': { label: 'Koa 3, one middleware, the driver\'s `insertOne`', workload: FRESH, program: 'koa-mongodb', mongodb: true },
  'service-mongodb': { label: '**this service** on MongoDB (request log on)', workload: FRESH, program: 'service', mongodb: true },
  'koa-mongodb-mixed': { label: 'Koa 3, one middleware, the driver, mixed workload', workload: MIXED, program: 'koa-mongodb', mongodb: true },
  'service-mongodb-mixed': { label: '**this service** on MongoDB, mixed workload', workload: MIXED, program: 'service', mongodb: true },
}

const BENCH_STORE_BOUND = { IN_MEMORY_MAX_PLANTS: '20000000' }

export const serverUnderTest = (key: ServerKey, where: Where): ServerUnderTest => {
  const { label, workload, program, mongodb } = KINDS[key]
  const stdoutPath = (run: string) => (where.logDir === undefined ? '/dev/null' : join(where.logDir, `${key}-${run}.log`))
  const launch = (run: string, env: Readonly<Record<string, string>>) =>
    program === 'service'
      ? startServer({
          label,
          nodeArgs: [SERVICE_MAIN],
          // The references keep every plant; the service's in-memory bound (100,000 plants by default)
          // is raised so a fast run or the 10^6 flat-store fill measures storing, not refusing.
          env: { PLANT_STORE_TOKENS: TOKEN, ...BENCH_STORE_BOUND, ...where.serviceEnv, ...env },
          stdoutPath: stdoutPath(run),
          cores: where.serverCores,
        })
      : startServer({
          label,
          nodeArgs: [join(where.referencesDir, `${program}.js`)],
          env: { PLANT_STORE_TOKENS: TOKEN, ...env },
          stdoutPath: stdoutPath(run),
          cores: where.serverCores,
        })
  const start = async (run: string): Promise<ServerProcess> => {
    if (!mongodb) return launch(run, {})
    // The peer is a separate process: its CPU and memory are not the server's, and not counted.
    const peer = await startMongoPeer(where.peerCores)
    const server = await launch(run, { MONGODB_URI: peer.uri }).catch(async (error: unknown) => {
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
  return { key, label, workload, start }
}
