import { expect } from 'chai'
import { Agent, request } from 'node:http'
import type { Socket } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import { isBuilt, startServiceProcess, type ServiceProcess } from '../support/service-process.js'
import { expectErrorDocument } from '../support/responses.js'

const TOKEN = 'shutdown-token-0123456789'
const CLIENTS = 50
const DRAIN_MS = 1_500

interface Outcome {
  readonly beforeSignal: boolean
  readonly status: number | undefined
  readonly error: string | undefined
}

describe('the service stopping on SIGTERM under keep-alive load', function () {
  this.timeout(30_000)
  let service: ServiceProcess | undefined

  before(function () {
    if (!isBuilt()) this.skip() // dist/ is built by `npm run build`, which `npm test` runs first
  })
  afterEach(async function () {
    await service?.stop('SIGKILL')
    service = undefined
  })

  it('answers every request sent before the signal, turns /readyz 503 while draining, and closes each connection with its last response', async function () {
    service = startServiceProcess({ PLANT_STORE_TOKENS: TOKEN, SHUTDOWN_DRAIN_MS: String(DRAIN_MS) })
    const { hostname, port } = new URL(await service.listening)
    let signalled = false
    const outcomes: Outcome[] = []
    // What the last response on each connection said about the connection.
    const lastConnectionHeader = new Map<Socket, string | undefined>()

    const post = (agent: Agent, id: number): Promise<Outcome> => {
      const beforeSignal = !signalled
      const body = JSON.stringify({ id, name: `plant ${id}` })
      return new Promise((resolve) => {
        const req = request(
          {
            host: hostname,
            port,
            agent,
            method: 'POST',
            path: '/plants',
            headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', 'Content-Length': body.length },
          },
          (res) => {
            lastConnectionHeader.set(res.socket, res.headers.connection)
            res.resume().on('end', () => resolve({ beforeSignal, status: res.statusCode, error: undefined }))
          },
        )
        req.on('error', (error: NodeJS.ErrnoException) => resolve({ beforeSignal, status: undefined, error: error.code ?? error.message }))
        req.end(body)
      })
    }

    // Each client sends one request after another on its kept-alive connection, until the
    // service no longer answers.
    const client = async (index: number): Promise<void> => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      for (let n = 0; ; n++) {
        const outcome = await post(agent, index * 1_000_000 + n)
        outcomes.push(outcome)
        if (outcome.error !== undefined && !outcome.beforeSignal) break
      }
      agent.destroy()
    }
    const clients = Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)))

    await delay(500)
    signalled = true
    service.child.kill('SIGTERM')
    await delay(DRAIN_MS / 3)
    const readiness = await fetch(`http://${hostname}:${port}/readyz`, { headers: { Connection: 'close' } })
    await expectErrorDocument(readiness, 503)

    expect(await service.exited).to.equal(0)
    await clients

    const before = outcomes.filter((outcome) => outcome.beforeSignal)
    const after = outcomes.filter((outcome) => !outcome.beforeSignal)
    expect(before.length, 'requests sent before the signal').to.be.above(CLIENTS)
    expect(before.filter((outcome) => outcome.status !== 200), 'requests sent before the signal without a 200').to.deep.equal([])
    expect(after.filter((outcome) => outcome.status === 200).length, 'requests served while draining').to.be.above(CLIENTS)
    const lastHeaders = [...lastConnectionHeader.values()]
    expect(lastHeaders.filter((header) => header !== 'close'), 'connections whose last response did not say close').to.deep.equal([])
    expect(service.stdout()).to.include('"msg":"draining"')
  })
})
