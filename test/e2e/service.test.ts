import { expect } from 'chai'
import { once } from 'node:events'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { useCurrentBuild } from '../support/current-build.js'
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js'
import { expectErrorDocument, expectPlant } from '../support/responses.js'

const TOKEN = 'e2e-token-0123456789abcdef'

describe('the service as npm start runs it', function () {
  this.timeout(20_000)
  let service: ServiceProcess | undefined

  useCurrentBuild()
  afterEach(async function () {
    await service?.stop('SIGKILL')
    service = undefined
  })

  it('serves the contract on the configured tokens and stops cleanly on SIGTERM', async function () {
    service = startServiceProcess({ PLANT_STORE_TOKENS: `other-token-0123456789,${TOKEN}` })
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
    service = startServiceProcess({ PLANT_STORE_TOKENS: TOKEN, BASE_PATH: '/api/v1', BODY_LIMIT: '1kb' })
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

  it('lets a request in flight finish before it stops', async function () {
    service = startServiceProcess({ PLANT_STORE_TOKENS: TOKEN })
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
    service = startServiceProcess({})
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

  it('names PORT and exits 1 when the port is taken, without a stack trace', async function () {
    const holder = createServer()
    holder.listen(0, '127.0.0.1')
    await once(holder, 'listening')
    try {
      const { port } = holder.address() as AddressInfo
      service = startServiceProcess({ PORT: String(port), PLANT_STORE_TOKENS: TOKEN })
      expect(await service.exited).to.equal(1)
      expect(service.stderr()).to.include(`PORT: expected a port this process may listen on; ${port} on 127.0.0.1 is in use`)
      expect(service.stderr()).to.not.match(/\n\s+at /)
    } finally {
      holder.close()
    }
  })

  it('refuses a bad configuration with exit status 1 and a message naming each variable', async function () {
    service = startServiceProcess({ PORT: 'eighty', BODY_LIMIT: '0', BASE_PATH: 'api/', PLANT_STORE_TOKENS: 'short' })
    expect(await service.exited).to.equal(1)
    for (const name of ['PORT', 'BODY_LIMIT', 'BASE_PATH', 'PLANT_STORE_TOKENS']) {
      expect(service.stderr()).to.include(`${name}: expected`)
    }
    expect(service.stderr()).to.not.include('short')
  })
})
