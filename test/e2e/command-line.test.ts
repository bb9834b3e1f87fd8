import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { SERVICE_SETTINGS } from '../../apps/server/config.js'
import { ROOT } from '../support/clean-clone.js'
import { MAIN } from '../support/current-build.js'
import { useServiceProcesses } from '../support/service-process.js'

// The built service's command line: `--help` and `--version` answer and exit without starting,
// and a started service says which version it is.
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
const TOKEN = 'command-line-token-0123456789'

describe('the service’s command line', function () {
  this.timeout(30_000)
  const startService = useServiceProcesses()
  const withArgs = (env: Record<string, string>, ...args: string[]) =>
    startService(env, { argv: [process.execPath, MAIN, ...args], cwd: dirname(MAIN) })

  it('--version prints the version of package.json and exits 0 without starting', async function () {
    const service = withArgs({ PLANT_STORE_TOKENS: TOKEN }, '--version')
    expect(await service.exited, service.stderr()).to.equal(0)
    expect(service.stdout()).to.equal(`${VERSION}\n`)
    expect(service.stderr()).to.equal('')
  })

  it('--help lists every variable the configuration reads, with its default, and exits 0 without starting', async function () {
    // Settings that would stop a start: the help is for whoever is still getting them right.
    const service = withArgs({ PORT: 'eighty', NODE_ENV: 'production' }, '--help')
    expect(await service.exited, service.stderr()).to.equal(0)
    const help = service.stdout()
    expect(help).to.include(`plant-store ${VERSION}`)
    expect(help).not.to.include('"msg":"listening"')
    const listed = help
      .split('\n')
      .map((line) => /^ {2}([A-Z][A-Z0-9_]+) /.exec(line)?.[1])
      .filter((name) => name !== undefined)
    expect(listed).to.deep.equal(Object.keys(SERVICE_SETTINGS))
    for (const [name, text] of [
      ['PORT', 'default 3000: a port number'],
      ['BASE_PATH', 'default empty: a path prefix'],
      ['LOG_LEVEL', 'default info: one of fatal'],
      ['ALLOW_IN_MEMORY_STORAGE', 'default off: on or off'],
      ['MONGODB_URI', 'default none: a MongoDB connection string'],
      ['NODE_ENV', 'default development: production, development or test'],
      ['SHUTDOWN_GRACE_MS', 'default 10000 (MONGODB_TIMEOUT_MS with MONGODB_URI, when longer)'],
      ['JWT_CLOCK_TOLERANCE', 'default 30: whole seconds'],
    ] as const) {
      expect(help, name).to.match(new RegExp(`\\n {2}${name} +${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
    }
    expect(service.stderr()).to.equal('')
  })

  it('gives its version in the listening line', async function () {
    const service = withArgs({ PLANT_STORE_TOKENS: TOKEN })
    await service.listening
    const line = service
      .stdout()
      .split('\n')
      .find((l) => l.includes('"msg":"listening"'))
    expect(JSON.parse(line ?? '{}')).to.include({ version: VERSION })
  })

})
