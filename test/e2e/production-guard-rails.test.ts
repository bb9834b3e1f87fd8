import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../support/clean-clone.js'
import { freePort } from '../support/free-port.js'
import { useServiceProcesses } from '../support/service-process.js'

// The built service started as production starts it: what only suits a trial is refused unless
// asked for by name, and what production needs starts it.
const TOKEN = 'production-guard-token-0123456789'
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version

const listeningLine = (stdout: string): Record<string, unknown> =>
  JSON.parse(stdout.split('\n').find((line) => line.includes('"msg":"listening"')) ?? '{}') as Record<string, unknown>

describe('the service with NODE_ENV=production', function () {
  this.timeout(30_000)
  const startService = useServiceProcesses()
  // Nothing listens there: the service starts all the same, /readyz answering 503 until it does.
  const unreachableMongoDb = async (): Promise<string> => `mongodb://127.0.0.1:${await freePort()}/?serverSelectionTimeoutMS=300`

  it('exits 1 on in-memory storage, naming MONGODB_URI, why, and ALLOW_IN_MEMORY_STORAGE', async function () {
    const service = startService({ NODE_ENV: 'production', PLANT_STORE_TOKENS: TOKEN })
    expect(await service.exited).to.equal(1)
    expect(service.stderr()).to.match(/^plant-store: invalid configuration\n {2}MONGODB_URI: expected with NODE_ENV=production: [^\n]*lost when the process stops/)
    expect(service.stderr()).to.include('ALLOW_IN_MEMORY_STORAGE=on')
    expect(service.stdout()).not.to.include('"msg":"listening"')
  })

  it('exits 1 on a generated token, naming PLANT_STORE_TOKENS and JWT_*, and ALLOW_GENERATED_TOKEN, printing no token', async function () {
    const service = startService({ NODE_ENV: 'production', MONGODB_URI: await unreachableMongoDb() })
    expect(await service.exited).to.equal(1)
    expect(service.stderr()).to.match(/^plant-store: invalid configuration\n {2}PLANT_STORE_TOKENS: expected with NODE_ENV=production, or JWT_\*/)
    expect(service.stderr()).to.include('ALLOW_GENERATED_TOKEN=on')
    expect(service.stderr()).not.to.include('Development token')
  })

  it('starts with MongoDB and a token, and logs its version', async function () {
    const service = startService({ NODE_ENV: 'production', MONGODB_URI: await unreachableMongoDb(), PLANT_STORE_TOKENS: TOKEN })
    await service.listening
    expect(listeningLine(service.stdout())).to.include({ version: VERSION, storage: 'mongodb (database plant_store)' })
  })

  it('starts on in-memory storage and a generated token when both are allowed by name', async function () {
    const service = startService({ NODE_ENV: 'production', ALLOW_IN_MEMORY_STORAGE: 'on', ALLOW_GENERATED_TOKEN: 'on' })
    await service.listening
    expect(listeningLine(service.stdout())).to.include({ storage: 'in-memory' })
    expect(service.stderr()).to.include('Development token')
  })

  it('is not production under another NODE_ENV: in-memory storage and a generated token, as before', async function () {
    const service = startService({ NODE_ENV: 'development' })
    await service.listening
    expect(listeningLine(service.stdout())).to.include({ storage: 'in-memory' })
    expect(service.stderr()).to.include('Development token')
  })
})
