import { expect } from 'chai'
import { once } from 'node:events'
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import { useServiceProcesses } from '../support/service-process.js'
import { expectOneRawErrorDocument, openRaw, settlesWithin } from '../support/raw-http.js'
import { expectErrorDocument, expectPlant } from '../support/responses.js'

const TOKEN = 'e2e-token-0123456789abcdef'

const CLIENTS = 50
const DRAIN_MS = 1_500

interface Outcome {
  readonly beforeSignal: boolean
  readonly status: number | undefined
  readonly error: string | undefined
}

describe('the service as npm start runs it', function () {
  this.timeout(20_000)
  const startService = useServiceProcesses()

  it('serves the contract on the configured tokens and stops cleanly on SIGTERM', async function () {
    const service = startService({ PLANT_STORE_TOKENS: `other-token-0123456789,${TOKEN}` })
    const url = await service.listening
    expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(service.stdout()).to.include('"storage":"in-memory"')
    const create = (body: string, token = TOKEN) =>
      fetch(`${url}/plants`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body,
      })
    await expectPlant(await create('{"id":9007199254740993,"name":"Fern","tag":"pteridophyte"}'), {
      name: 'Fern',
      tag: 'pteridophyte',
    })
    await expectPlant(await create('{"id":9007199254740992,"name":"Moss"}'), { name: 'Moss' })
    await expectErrorDocument(await create('{"id":9007199254740993,"name":"Moss"}'), 409)
    await expectErrorDocument(await create('{"id":1,"name":"x"}', 'wrong-token-0123456789'), 401)
    expect((await fetch(`${url}/readyz`)).status).to.equal(200)
    expect(service.stdout()).to.not.include(TOKEN)

    expect(await service.stop('SIGTERM')).to.equal(0)
    expect(service.stdout()).to.include('"msg":"stopped"')
  })

  it('takes BASE_PATH and BODY_LIMIT from the environment', async function () {
    const service = startService({ PLANT_STORE_TOKENS: TOKEN, BASE_PATH: '/api/v1', BODY_LIMIT: '1kb' })
    const url = await service.listening
    const post = (path: string, body: string) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body,
      })
    await expectPlant(await post('/api/v1/plants', `{"id":1,"name":"${'a'.repeat(900)}"}`), { name: 'a'.repeat(900) })
    await expectErrorDocument(await post('/api/v1/plants', `{"id":2,"name":"${'a'.repeat(1100)}"}`), 413)
    await expectErrorDocument(await post('/plants', '{"id":3,"name":"x"}'), 404)
  })

  it('keeps its JSON limits whatever the environment says, and takes the timeouts from it', async function () {
    const service = startService({
      PLANT_STORE_TOKENS: TOKEN,
      JSON_NUMBER_LIMIT: '5',
      JSON_DEPTH_LIMIT: '2',
      HEADERS_TIMEOUT_MS: '500',
      REQUEST_TIMEOUT_MS: '1000',
    })
    const url = await service.listening
    const post = (body: string) =>
      fetch(`${url}/plants`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body,
      })
    // The body's object is one level: 31 arrays inside it make the 32 levels allowed.
    const arrays = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`
    await expectPlant(await post(`{"id":1${'0'.repeat(17)},"name":"x","a":${arrays(31)}}`), { name: 'x' })
    await expectErrorDocument(await post(`{"id":1,"name":"x","a":${'1'.repeat(101)}}`), 400)
    await expectErrorDocument(await post(`{"id":2,"name":"x","a":${arrays(32)}}`), 400)
    const idle = await openRaw(url)
    idle.write('POST /plants HTTP/1.1\r\n')
    expect(await settlesWithin(idle.closed, 5_000), 'a request whose headers stop coming is closed').to.equal(true)
    expectOneRawErrorDocument(idle.received(), 408)
  })

  it('lets a request in flight finish before it stops', async function () {
    // No drain: the request in flight finishes even when the listener closes at once.
    const service = startService({ PLANT_STORE_TOKENS: TOKEN, SHUTDOWN_DRAIN_MS: '0' })
    const { hostname, port } = new URL(await service.listening)
    const body = '{"id":42,"name":"Slow plant"}'
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: hostname,
          port,
          method: 'POST',
          path: '/plants',
          headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', 'Content-Length': body.length },
        },
        (res) => {
          let text = ''
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
        },
      )
      req.on('error', reject)
      req.write(body.slice(0, 10))
      setTimeout(() => {
        service?.child.kill('SIGTERM')
        setTimeout(() => req.end(body.slice(10)), 300)
      }, 300)
    })
    const { status, body: received } = await answer
    expect(status).to.equal(200)
    expect(JSON.parse(received)).to.deep.equal({ name: 'Slow plant' })
    expect(await service.exited).to.equal(0)
  })

  it('makes, prints and accepts a development token when none is configured', async function () {
    const service = startService({})
    const url = await service.listening
    const token = /Development token[^\n]*\n\s+(\S+)/.exec(service.stderr())?.[1]
    expect(token, 'the printed development token').to.be.a('string')
    expect(service.stderr().split(token ?? '').length - 1, 'times the token is printed').to.equal(1)
    expect(service.stdout()).to.not.include(token ?? '')
    expect(service.stdout()).to.include('development token')
    const response = await fetch(`${url}/plants`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token ?? ''}`, 'Content-Type': 'application/json' },
      body: '{"id":1,"name":"x"}',
    })
    await expectPlant(response, { name: 'x' })
  })

  it('says the port is in use, naming PORT, and exits 1 when the port is taken, without a stack trace', async function () {
    const holder = createServer()
    holder.listen(0, '127.0.0.1')
    await once(holder, 'listening')
    try {
      const { port } = holder.address() as AddressInfo
      const service = startService({ PORT: String(port), PLANT_STORE_TOKENS: TOKEN })
      expect(await service.exited).to.equal(1)
      expect(service.stderr()).to.match(new RegExp(`^plant-store: port in use\\n {2}PORT: port ${port} on 127\\.0\\.0\\.1 is in use by another process`))
      expect(service.stderr(), 'a port in use is not a mistake in the settings').not.to.include('invalid configuration')
      expect(service.stderr()).to.not.match(/\n\s+at /)
    } finally {
      holder.close()
    }
  })

  it('refuses a bad configuration with exit status 1 and a message naming each variable', async function () {
    const service = startService({ PORT: 'eighty', BODY_LIMIT: '0', BASE_PATH: 'api/', PLANT_STORE_TOKENS: 'short' })
    expect(await service.exited).to.equal(1)
    for (const name of ['PORT', 'BODY_LIMIT', 'BASE_PATH', 'PLANT_STORE_TOKENS']) {
      expect(service.stderr()).to.include(`${name}: expected`)
    }
    expect(service.stderr()).to.not.include('short')
  })

  it('answers every request sent before the signal, turns /readyz 503 while draining, and closes each connection with its last response', async function () {
    const service = startService({ PLANT_STORE_TOKENS: TOKEN, SHUTDOWN_DRAIN_MS: String(DRAIN_MS) })
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
    expect(before.length, 'requests sent before the signal').to.be.at.least(CLIENTS)
    expect(before.filter((outcome) => outcome.status !== 200), 'requests sent before the signal without a 200').to.deep.equal([])
    expect(after.filter((outcome) => outcome.status === 200).length, 'requests served while draining').to.be.above(0)
    const lastHeaders = [...lastConnectionHeader.values()]
    expect(lastHeaders.filter((header) => header !== 'close'), 'connections whose last response did not say close').to.deep.equal([])
    expect(service.stdout()).to.include('"msg":"draining"')
  })
})
