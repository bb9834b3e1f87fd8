import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MAIN } from '../support/current-build.js'
import { useServiceProcesses } from '../support/service-process.js'

// What a person gets wrong in the service's settings is said at start, and the local settings file
// is read by the service as it starts, whichever command starts it.
const TOKEN = 'config-token-0123456789abcdef'
const SECRET_VALUE = 'do-not-print-this-value-0123456789'

const jsonLines = (text: string): ReadonlyArray<Record<string, unknown>> =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)

describe('the service at start, given settings with mistakes', function () {
  this.timeout(30_000)
  const startService = useServiceProcesses()
  let dir = ''

  afterEach(async function () {
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
    dir = ''
  })

  it('warns by name about each variable that looks like its own and is not read, never with its value', async function () {
    const service = startService({
      PLANT_STORE_TOKENS: TOKEN,
      PLANT_STORE_TOKEN: SECRET_VALUE,
      PORTT: '8080',
      JWT_SECRETT: SECRET_VALUE,
      MONGODB_URL: 'mongodb://127.0.0.1:1/',
      UNRELATED_SETTING: 'x',
    })
    await service.listening
    const warnings = jsonLines(service.stdout()).filter((line) => line['msg'] === 'variable not read by the service')
    expect(warnings.map((line) => [line['variable'], line['didYouMean']])).to.deep.equal([
      ['JWT_SECRETT', 'JWT_SECRET'],
      ['MONGODB_URL', 'MONGODB_URI'],
      ['PLANT_STORE_TOKEN', 'PLANT_STORE_TOKENS'],
      ['PORTT', 'PORT'],
    ])
    for (const line of warnings) expect(line['level']).to.equal('warn')
    expect(service.stdout() + service.stderr()).to.not.include(SECRET_VALUE)
  })

  it('warns by name about each variable it no longer reads', async function () {
    const service = startService({ PLANT_STORE_TOKENS: TOKEN, JSON_DEPTH_LIMIT: '8' })
    await service.listening
    const warnings = jsonLines(service.stdout()).filter((line) => line['msg'] === 'variable no longer read by the service')
    expect(warnings.map((line) => [line['level'], line['variable']])).to.deep.equal([['warn', 'JSON_DEPTH_LIMIT']])
  })

  it('says nothing of the variables it reads', async function () {
    const service = startService({ PLANT_STORE_TOKENS: TOKEN, LOG_LEVEL: 'info', MONGODB_TIMEOUT_MS: '2000' })
    await service.listening
    expect(jsonLines(service.stdout()).map((line) => line['msg'])).to.not.include('variable not read by the service')
  })

  it('reads .env in its working directory, a variable of the environment winning over the file', async function () {
    dir = mkdtempSync(join(tmpdir(), 'plant-store-env-file-'))
    writeFileSync(join(dir, '.env'), `PLANT_STORE_TOKENS=${TOKEN}\nBASE_PATH=/from-file\nLOG_LEVEL=debug\n`)
    const service = startService({ LOG_LEVEL: 'info' }, { argv: [process.execPath, MAIN], cwd: dir })
    const url = await service.listening
    expect(service.stderr(), 'no development token: the file gave one').to.not.include('Development token')
    const answer = await fetch(`${url}/from-file/plants`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: '{"id":1,"name":"Fern"}',
    })
    expect(answer.status).to.equal(200)
    expect(await answer.json()).to.deep.equal({ name: 'Fern' })
    expect(jsonLines(service.stdout()).some((line) => line['level'] === 'debug'), 'LOG_LEVEL from the environment').to.equal(false)
  })

  for (const [what, make] of [
    ['a FIFO, which no one writes', (path: string) => execFileSync('mkfifo', [path])],
    ['a link to /dev/zero, which never ends', (path: string) => symlinkSync('/dev/zero', path)],
  ] as const) {
    it(`stops at once, naming .env, when .env is ${what}`, async function () {
      dir = mkdtempSync(join(tmpdir(), 'plant-store-env-file-'))
      make(join(dir, '.env'))
      const service = startService({ PLANT_STORE_TOKENS: TOKEN }, { argv: [process.execPath, MAIN], cwd: dir })
      const exited = await Promise.race([service.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))])
      expect(exited, service.stderr()).to.equal(1)
      expect(service.stderr()).to.match(/^plant-store: invalid configuration\n {2}\.env: not a regular file \(a (FIFO|character device)\)/)
    })
  }

  it('stops at once on a NODE_ENV of another case or a shortened one, naming it and the one it probably means', async function () {
    for (const NODE_ENV of ['Production', 'PRODUCTION', 'prod']) {
      const service = startService({ PLANT_STORE_TOKENS: TOKEN, NODE_ENV })
      const exited = await Promise.race([service.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000))])
      expect(exited, `${NODE_ENV}: ${service.stderr()}`).to.equal(1)
      expect(service.stderr(), NODE_ENV).to.equal(
        'plant-store: invalid configuration\n  NODE_ENV: expected production, development or test, exactly as written (production, probably)\n',
      )
    }
  })
})
