import { expect } from 'chai'
import { useServiceProcesses } from '../support/service-process.js'
import { parsePrometheusText, valueOf } from '../support/prometheus-text.js'
import { expectErrorDocument, expectPlant } from '../support/responses.js'
import { startJwksServer, type JwksServer } from '../support/jwt/jwks-server.js'
import { AUDIENCE, ISSUER, issueToken, makeSigningKey, withTamperedSignature, type SigningKey } from '../support/jwt/tokens.js'

const STATIC_TOKEN = 'e2e-static-token-0123456789'

describe('the service as npm start runs it, with JWT configuration', function () {
  this.timeout(20_000)
  let key: SigningKey
  let jwks: JwksServer
  const startService = useServiceProcesses()
  before(async function () {
    key = await makeSigningKey('RS256', 'e2e-key')
  })
  beforeEach(async function () {
    jwks = await startJwksServer([key.jwk])
  })
  afterEach(async function () {
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
    const service = startService({ ...jwtEnvironment(), PLANT_STORE_TOKENS: STATIC_TOKEN })
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

  it('answers forged tokens with the issuer and audience but an unknown or malformed kid 401, counted and logged apart', async function () {
    const service = startService({ ...jwtEnvironment(), METRICS_PORT: '0' })
    const url = await service.listening
    // One token makes the key set be fetched; the forged ones after it cost no fetch and no 5xx.
    await expectErrorDocument(await create(url, withTamperedSignature(await issueToken(key))), 401)
    const forger = await makeSigningKey('RS256', 'forger')
    const forged = [{ kid: 'k'.repeat(9_000) }, { kid: 'rotated-in-nowhere' }, { kid: 42 }, { kid: null }, { kid: '' }, { kid: ['e2e-key'] }]
    for (const header of forged) {
      const response = await create(url, await issueToken(forger, {}, header))
      await expectErrorDocument(response, 401)
      expect(response.headers.get('www-authenticate')).to.equal('Bearer realm="plant-store", error="invalid_token"')
    }
    expect(jwks.requestCount()).to.equal(1)
    // A request's log line is written once its answer is sent: the last may still be on its way.
    const refusedLines = () => service.stdout().split('\n').filter((line) => line.includes('"status":401'))
    for (const until = Date.now() + 2_000; refusedLines().length < 1 + forged.length && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const lines = refusedLines()
    expect(lines).to.have.length(1 + forged.length)
    for (const line of lines) expect(line.length, line.slice(0, 200)).to.be.below(600)
    expect(lines.filter((line) => line.includes('"msg":"request refused: unknown signing key"'))).to.have.length(2)
    expect(service.stdout()).to.include('(9000 characters)')
    for (const line of lines) expect(line).to.include('"level":"info"')
    const listening = service
      .stdout()
      .split('\n')
      .find((line) => line.includes('"msg":"listening"'))
    const metricsUrl = (JSON.parse(listening ?? '{}') as { metricsUrl?: string }).metricsUrl ?? expect.fail('no metricsUrl')
    const samples = parsePrometheusText(await (await fetch(metricsUrl)).text())
    const authentications = (outcome: string) => valueOf(samples, 'plant_store_authentications_total', { outcome })
    expect(['unknown_key', 'refused', 'unavailable'].map(authentications)).to.deep.equal([2, 5, 0])
  })

  it('makes no development token when JWT is configured', async function () {
    const service = startService(jwtEnvironment())
    const url = await service.listening
    expect(service.stderr()).not.to.match(/development token/i)
    expect(service.stdout()).not.to.match(/development token/i)
    await expectPlant(await create(url, await issueToken(key)), { name: 'Fern' })
  })

  it('answers 503 while the JWKS server cannot be reached and no key is cached', async function () {
    await jwks.stop()
    const service = startService(jwtEnvironment())
    const url = await service.listening
    await expectErrorDocument(await create(url, await issueToken(key)), 503)
  })

  it('refuses an incomplete JWT configuration at start, naming the variables', async function () {
    const service = startService({ JWT_JWKS_URL: jwks.url.href, JWT_ALGORITHMS: 'HS256' })
    expect(await service.exited).to.equal(1)
    for (const name of ['JWT_ISSUER', 'JWT_AUDIENCE', 'JWT_ALGORITHMS']) expect(service.stderr()).to.include(`${name}: expected`)
  })
})
