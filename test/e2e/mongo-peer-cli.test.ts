import { expect } from 'chai'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const peer = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'test/support/mongo-peer/main.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 })

describe('npm run mongo-peer, as a command', function () {
  this.timeout(30_000)

  it('prints its usage on --help and exits 0', function () {
    const { status, stdout, stderr } = peer('--help')
    expect(status).to.equal(0)
    expect(stdout).to.include('npm run mongo-peer -- [--port N]')
    expect(stderr).to.equal('')
  })

  it('names an unknown flag with the usage, exit 1, and no stack trace', function () {
    const { status, stderr } = peer('--bogus')
    expect(status).to.equal(1)
    expect(stderr).to.include("'--bogus'").and.include('npm run mongo-peer -- [--port N]')
    expect(stderr).to.not.match(/\n\s+at /)
  })
})
