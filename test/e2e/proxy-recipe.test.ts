import { expect } from 'chai'
import { Agent, request } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { once } from 'node:events'
import { connect, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { composeService, environmentOf, readComposeFile } from '../support/compose.js'
import { useCurrentBuild } from '../support/current-build.js'
import { freePort } from '../support/free-port.js'
import { findNginx, startShippedNginx, type RunningNginx } from '../support/nginx.js'
import { reportPending } from '../support/pending.js'
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js'

// The load balancer recipe as shipped, tried under load: deploy/nginx.conf run by nginx in front
// of two instances started with the environment compose.yaml gives them (in-memory storage in
// place of the replica set). Each client has an address of its own on loopback (127.0.0.0/8 is
// all local), as clients on the internet have, so the proxy's per-client bounds see them apart.

const CLIENTS = 250
const ROUNDS = 4 // requests per client, one after another on its kept-alive connection
const FLOOD = 100 // connections of each kind in the flood
const REQUEST_TIMEOUT_MS = 20_000
const FLOOD_REQUESTS_PER_CONNECTION = 20

const clientAddress = (client: number) => `127.1.${Math.floor(client / 200)}.${(client % 200) + 1}`

type Outcome = number | 'error'

const post = (agent: Agent, url: string, headers: Record<string, string>, body: string): Promise<Outcome> =>
  new Promise((resolve) => {
    const req = request(`${url}/plants`, { method: 'POST', agent, headers: { 'Content-Type': 'application/json', ...headers }, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      res.resume()
      res.once('end', () => resolve(res.statusCode ?? 0))
      res.once('error', () => resolve('error'))
    })
    req.once('timeout', () => req.destroy(new Error('timed out')))
    req.once('error', () => resolve('error'))
    req.end(body)
  })

const tally = (outcomes: ReadonlyArray<Outcome>): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const outcome of outcomes) counts[String(outcome)] = (counts[String(outcome)] ?? 0) + 1
  return counts
}

// 250 clients at once, each storing ROUNDS plants with the token compose.yaml gives.
const legitimateLoad = async (url: string, token: string, firstId: number): Promise<ReadonlyArray<Outcome>> => {
  const clients = Array.from({ length: CLIENTS }, async (_, client) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: clientAddress(client) })
    const outcomes: Outcome[] = []
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        const id = firstId + client * ROUNDS + round
        outcomes.push(await post(agent, url, { Authorization: `Bearer ${token}` }, `{"id":${id},"name":"Fern ${id}"}`))
      }
    } finally {
      agent.destroy()
    }
    return outcomes
  })
  return (await Promise.all(clients)).flat()
}

interface Flood {
  readonly stop: () => Promise<void>
}

// 300 connections from three other clients: one holds 100 connections that never send a byte,
// one 100 that send half a request's headers and stop, one 100 that send requests without a
// token as fast as they are answered, each at most FLOOD_REQUESTS_PER_CONNECTION.
const startFlood = async (url: string): Promise<Flood> => {
  const { hostname, port } = new URL(url)
  const sockets: Socket[] = []
  const open = (localAddress: string, onConnect: (socket: Socket) => void) =>
    new Promise<void>((resolve) => {
      const socket = connect({ host: hostname, port: Number(port), localAddress })
      sockets.push(socket)
      socket.on('error', () => undefined)
      socket.once('connect', () => {
        onConnect(socket)
        resolve()
      })
      socket.once('close', () => resolve())
    })
  const silent = Array.from({ length: FLOOD }, () => open('127.2.0.1', () => undefined))
  const halfSent = Array.from({ length: FLOOD }, () => open('127.2.0.2', (socket) => socket.write('POST /plants HTTP/1.1\r\nHost: flood\r\nContent-Type: application/json\r\n')))
  await Promise.all([...silent, ...halfSent])
  let stopped = false
  const agent = new Agent({ keepAlive: true, maxSockets: FLOOD, localAddress: '127.2.0.3' })
  const unauthenticated = Array.from({ length: FLOOD }, async (_, connection) => {
    for (let sent = 0; sent < FLOOD_REQUESTS_PER_CONNECTION && !stopped; sent += 1) {
      await post(agent, url, {}, `{"id":${connection},"name":"Flood"}`)
    }
  })
  return {
    stop: async () => {
      stopped = true
      await Promise.all(unauthenticated)
      agent.destroy()
      for (const socket of sockets) socket.destroy()
    },
  }
}

type Environment = Readonly<Record<string, string>>

// What an operator sets where compose runs: compose.yaml commits no token.
const SHELL: Environment = { PLANT_STORE_TOKENS: 'proxy-recipe-token-0123456789' }

/** The shipped recipe in front of the upstreams a suite starts, as its tests reach it. */
interface Recipe {
  /** nginx's URL. */
  readonly url: string
  /** The first token compose.yaml gives the instances. */
  readonly token: string
  readonly instances: ReadonlyArray<ServiceProcess>
  readonly errorLog: () => string
}

/**
 * deploy/nginx.conf run by nginx, for the suite, in front of the upstreams `startUpstreams` names
 * (hosts), given the environment compose.yaml gives an instance and a way to start one that is
 * stopped after the suite; pending where no nginx is installed.
 */
const useShippedRecipe = (
  what: string,
  startUpstreams: (env: Environment, startInstance: (env: Environment) => ServiceProcess) => Promise<ReadonlyArray<string>>,
): Recipe => {
  let nginx: RunningNginx | undefined
  const instances: ServiceProcess[] = []
  let dir = ''
  let token = ''

  before(async function () {
    const binary = findNginx()
    if (typeof binary !== 'string') {
      reportPending(what, binary.missing)
      this.skip()
    }
    const env = environmentOf(composeService(readComposeFile(), 'plant-store-1'), SHELL)
    token = (env['PLANT_STORE_TOKENS'] ?? '').split(',')[0] ?? ''
    const upstreams = await startUpstreams(env, (instanceEnv) => {
      const instance = startServiceProcess({ ...instanceEnv, HOST: '127.0.0.1', PORT: '0' })
      instances.push(instance)
      return instance
    })
    dir = mkdtempSync(join(tmpdir(), 'plant-store-nginx-'))
    nginx = await startShippedNginx(binary, upstreams, dir)
  })

  after(async function () {
    await nginx?.stop()
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')))
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  return {
    get url() {
      return nginx?.url ?? ''
    },
    get token() {
      return token
    },
    instances,
    errorLog: () => nginx?.errorLog() ?? '',
  }
}

// The replica set is compose's business; in-memory storage stands for it where storage answers.
const withoutStorage = (env: Environment): Environment => Object.fromEntries(Object.entries(env).filter(([name]) => name !== 'MONGODB_URI'))

const hostOf = async (instance: ServiceProcess): Promise<string> => new URL(await instance.listening).host

describe('the load balancer recipe (deploy/nginx.conf, compose.yaml) in front of two instances', function () {
  this.timeout(300_000)
  useCurrentBuild()
  const recipe = useShippedRecipe('the load balancer recipe under load', (env, startInstance) => {
    expect(environmentOf(composeService(readComposeFile(), 'plant-store-2'), SHELL), 'both instances get one environment').to.deep.equal(env)
    return Promise.all([0, 1].map(() => hostOf(startInstance(withoutStorage(env)))))
  })

  afterEach(function () {
    for (const instance of recipe.instances) expect(instance.child.exitCode, `an instance exited: ${instance.stderr()}`).to.equal(null)
    // Out of worker connections or open files is an alert; the recipe must have room for the load.
    expect(recipe.errorLog(), "nginx's error log").not.to.match(/\[(alert|crit|emerg)\]/)
  })

  // The contract: every response carries the caller's X-Request-Id when it sent a well-formed one,
  // a new one otherwise. The proxy's id stands in only where the caller's would be replaced.
  it("keeps a caller's well-formed X-Request-Id through the proxy, and gives its own only when none or a malformed one came", async function () {
    const post = async (requestId: string | undefined, id: number): Promise<string | null> => {
      const answer = await fetch(`${recipe.url}/plants`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${recipe.token}`, 'Content-Type': 'application/json', ...(requestId === undefined ? {} : { 'X-Request-Id': requestId }) },
        body: JSON.stringify({ id, name: 'Fern' }),
      })
      expect(answer.status).to.equal(200)
      return answer.headers.get('x-request-id')
    }
    const NGINX_ID = /^[0-9a-f]{32}$/
    for (const [index, kept] of ['caller-id-1', 'order:42/retry=2', 'a'.repeat(128), 'x@y.example~_-+'].entries()) {
      expect(await post(kept, 7_000 + index), kept).to.equal(kept)
    }
    for (const [index, replaced] of ['has space', 'a'.repeat(129), 'quote"d', 'semi;colon'].entries()) {
      const answered = await post(replaced, 7_100 + index)
      expect(answered, replaced).to.not.equal(replaced)
      expect(answered, replaced).to.match(NGINX_ID)
    }
    expect(await post(undefined, 7_200)).to.match(NGINX_ID)
  })

  it(`holds ${CLIENTS} clients at once: every request stored, none answered 502`, async function () {
    const outcomes = await legitimateLoad(recipe.url, recipe.token, 1_000_000)
    const counts = tally(outcomes)
    expect(counts['502'] ?? 0, `502s among ${JSON.stringify(counts)}`).to.equal(0)
    expect(counts['200'] ?? 0, `answers: ${JSON.stringify(counts)}`).to.equal(CLIENTS * ROUNDS)
  })

  it(`keeps at least 90 % of ${CLIENTS} clients' requests succeeding beside a flood of ${3 * FLOOD} connections from other clients`, async function () {
    const flood = await startFlood(recipe.url)
    let outcomes: ReadonlyArray<Outcome> = []
    try {
      outcomes = await legitimateLoad(recipe.url, recipe.token, 2_000_000)
    } finally {
      await flood.stop()
    }
    const counts = tally(outcomes)
    expect((counts['200'] ?? 0) / outcomes.length, `answers: ${JSON.stringify(counts)}`).to.be.at.least(0.9)
    expect(counts['502'] ?? 0, `502s among ${JSON.stringify(counts)}`).to.equal(0)
  })
})

// An instance that reads a whole request and closes the connection without answering, as one
// stopped in the middle of a request does.
const startDropper = async () => {
  let requests = 0
  const server = createServer((socket) => {
    let seen = ''
    socket.on('error', () => undefined)
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      seen += chunk
      const headersEnd = seen.indexOf('\r\n\r\n')
      if (headersEnd === -1) return
      const length = Number(/^content-length:\s*(\d+)/im.exec(seen.slice(0, headersEnd))?.[1] ?? 0)
      if (seen.length - headersEnd - 4 < length) return
      requests += 1
      socket.destroy()
    })
  }).listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  return { host: `127.0.0.1:${port}`, requests: () => requests, close: () => new Promise((resolve) => server.close(resolve)) }
}

describe('the load balancer recipe (deploy/nginx.conf) when an instance drops a request it was sent', function () {
  this.timeout(120_000)
  useCurrentBuild()
  let dropper: Awaited<ReturnType<typeof startDropper>> | undefined
  const recipe = useShippedRecipe('the load balancer recipe, a dropped request', async (env, startInstance) => {
    const host = await hostOf(startInstance(withoutStorage(env)))
    dropper = await startDropper()
    return [dropper.host, host]
  })

  after(async function () {
    await dropper?.close()
  })

  it('stores a POST on the other instance: a create is idempotent by id, so the proxy may repeat it', async function () {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const outcomes: Outcome[] = []
    try {
      for (let id = 1; id <= 4; id += 1) outcomes.push(await post(agent, recipe.url, { Authorization: `Bearer ${recipe.token}` }, `{"id":${id},"name":"Fern"}`))
    } finally {
      agent.destroy()
    }
    expect(dropper?.requests(), 'requests the dropping instance was sent').to.be.at.least(1)
    expect(outcomes).to.deep.equal([200, 200, 200, 200])
  })
})

describe('the load balancer recipe (deploy/nginx.conf) while storage is unavailable', function () {
  this.timeout(120_000)
  useCurrentBuild()
  const recipe = useShippedRecipe('the load balancer recipe, storage unavailable', async (env, startInstance) => {
    // A replica set nobody answers for: a port nothing listens on.
    const storage = `mongodb://127.0.0.1:${await freePort()}/?serverSelectionTimeoutMS=300`
    const unavailable = { ...env, MONGODB_URI: storage, MONGODB_TIMEOUT_MS: '300', SHUTDOWN_GRACE_MS: '1000' }
    return Promise.all([0, 1].map(() => hostOf(startInstance(unavailable))))
  })

  it("passes the instances' 503 on, and keeps them in the rotation for when storage is back", async function () {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const outcomes: Outcome[] = []
    try {
      for (let id = 1; id <= 8; id += 1) outcomes.push(await post(agent, recipe.url, { Authorization: `Bearer ${recipe.token}` }, `{"id":${id},"name":"Fern"}`))
    } finally {
      agent.destroy()
    }
    expect(outcomes, 'a 503 with Retry-After from the service, never the proxy\'s 502').to.deep.equal(Array.from({ length: 8 }, () => 503))
  })
})
