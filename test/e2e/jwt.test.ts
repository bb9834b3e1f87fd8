import { expect } from 'chai'
import { useCurrentBuild } from '../support/current-build.js'
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js'
import { expectErrorDocument, expectPlant } from '../support/responses.js'
import { startJwksServer, type JwksServer } from '../support/jwt/jwks-server.js'
import { AUDIENCE, ISSUER, issueToken, makeSigningKey, type SigningKey } from '../support/jwt/tokens.js'

const STATIC_TOKEN = 'e2e-static-token-0123456789'

describe('the service as npm start runs it, with JWT configuration', function () {
  this.timeout(20_000)
  let key: SigningKey
  let jwks: JwksServer
  let service: ServiceProcess | undefined

  useCurrentBuild()
  before(async function () {
    key = await makeSigningKey('RS256', 'e2e-key')
  })
  beforeEach(async function () {
    jwks = await startJwksServer([key.jwk])
  })
  afterEach(async function () {
    await service?.stop('SIGKILL')
    service = undefined
    await jwks?.stop()
  })

  const jwtEnvironment = (): Record<string, string> => ({
    JWT_JWKS_URL: jwks.url.href,
    JWT_ISSUER: ISSUER,
    JWT_AUDIENCE: AUDIENCE,
    JWT_REQUIRED_SCOPE: 'plants:write',
  })

  const create = (url: string, token: string, body = '{"id":1,"name":"Fern"}'): Promise<Response> =>
    fetch(`${url}/plants`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body,
    })

  it('creates a plant with a token signed by the JWKS server, and refuses the rest as the contract says', async function () {
    service = startServiceProcess({ ...jwtEnvironment(), PLANT_STORE_TOKENS: STATIC_TOKEN })
    const url = await service.listening
    const token = await issueToken(key)

    await expectPlant(await create(url, token), { name: 'Fern' })
    await expectPlant(await create(url, STATIC_TOKEN, '{"id":2,"name":"Moss"}'), { name: 'Moss' })

    const foreign = await create(url, await issueToken(key, { iss: 'https://another-idp.example.test/' }), '{"id":3,"name":"x"}')
    await expectErrorDocument(foreign, 401)
    expect(foreign.headers.get('www-authenticate')).to.equal('Bearer realm="plant-store", error="invalid_token"')

    const unscoped = await create(url, await issueToken(key, { scope: 'plants:read' }), '{"id":3,"name":"x"}')
    await expectErrorDocument(unscoped, 403)
    expect(unscoped.headers.get('www-authenticate')).to.equal(
      'Bearer realm="plant-store", error="insufficient_scope", scope="plants:write"',
    )

    expect(service.stdout()).to.include('"subject":"user-42"')
    expect(service.stdout() + service.stderr()).not.to.include(token)
  })

  it('makes no development token when JWT is configured', async function () {
    service = startServiceProcess(jwtEnvironment())
    const url = await service.listening
    expect(service.stderr()).not.to.match(/development token/i)
    expect(service.stdout()).not.to.match(/development token/i)
    await expectPlant(await create(url, await issueToken(key)), { name: 'Fern' })
  })

  it('answers 503 while the JWKS server cannot be reached and no key is cached', async function () {
    await jwks.stop()
    service = startServiceProcess(jwtEnvironment())
    const url = await service.listening
    await expectErrorDocument(await create(url, await issueToken(key)), 503)
  })

  it('refuses an incomplete JWT configuration at start, naming the variables', async function () {
    service = startServiceProcess({ JWT_JWKS_URL: jwks.url.href, JWT_ALGORITHMS: 'HS256' })
    expect(await service.exited).to.equal(1)
    for (const name of ['JWT_ISSUER', 'JWT_AUDIENCE', 'JWT_ALGORITHMS']) expect(service.stderr()).to.include(`${name}: expected`)
  })
})
