import { expect } from 'chai'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cleanCloneFiles, copyFiles, ROOT, run } from '../support/clean-clone.js'
import { reportPending } from '../support/pending.js'
import { freePort } from '../support/free-port.js'

// A newcomer pastes the README's quick start whole into a terminal, in a fresh clone. This test
// does the same, with bash, in a copy of the repository's files (no node_modules, no dist/). The
// one change: the port, so the test never collides with a service already on 3000. Before the
// service is stopped, the client example runs against it as a reader would run it next: with the
// quick start's shell, its token and its service.

const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const block = /<!-- quick-start:start -->\n```sh\n([\s\S]*?)```\n<!-- quick-start:end -->/.exec(README)?.[1]

// The quick start's last line stops the service; the client example runs just before it.
const STOP = 'kill %1; wait'
const CLIENT_EXAMPLE = 'node --import tsx examples/client.ts'

describe("the README's quick start, pasted whole into a fresh clone", function () {
  this.timeout(300_000)
  let dir = ''

  after(function () {
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  it('installs, starts, waits, stores a plant, prints it, serves the client example, and stops the service', async function () {
    expect(block, 'the quick start block between its markers').to.be.a('string')
    const files = await cleanCloneFiles()
    if ('unknown' in files) {
      reportPending("the README's quick start", files.unknown)
      this.skip()
    }
    dir = mkdtempSync(join(tmpdir(), 'plant-store-quick-start-'))
    copyFiles(files, dir)
    const port = await freePort()
    const quickStart = (block ?? '').replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`)
    expect(quickStart).to.include(STOP)
    const script = quickStart.replace(STOP, `${CLIENT_EXAMPLE} > client.out\n${STOP}`)
    // A user's shell: no npm settings of the `npm test` that runs this, PORT as the test needs it.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|INIT_CWD$)/i.test(key)))
    const { stdout } = await run('bash', ['-c', script], {
      cwd: dir,
      env: { ...env, PORT: String(port), PLANT_STORE_URL: `http://127.0.0.1:${port}` },
      maxBuffer: 64 * 1024 * 1024,
    })
    // npm's own summary of the install comes first; the last line is the service's answer.
    expect(stdout.trimEnd().split('\n').at(-1)).to.equal('{"name":"Monstera","tag":"aroid"}')
    const log = readFileSync(join(dir, 'service.log'), 'utf8')
    const messages = log
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { msg: string }).msg)
    expect(messages, 'service.log: JSON lines only, npm banner elsewhere').to.include.members(['listening', 'request', 'stopped'])
    // The example's plant is new to the service, so it is created with the quick start's token.
    expect(readFileSync(join(dir, 'client.out'), 'utf8')).to.match(/^created \{ name: 'Monstera', tag: 'aroid' \}\n$/)
  })

  // The same block where the port is taken: the service says so and exits, and the wait ends
  // with it, where it polled for ever. Run in the clone the test above installed and built.
  it('ends, with the service naming the taken port, when the port is taken', async function () {
    if (dir === '') this.skip()
    const taken = createServer((socket) => socket.destroy())
    taken.listen(0, '127.0.0.1')
    await once(taken, 'listening')
    const port = (taken.address() as AddressInfo).port
    try {
      const script = (block ?? '').replace(/^npm ci\n/m, '').replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`)
      const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|INIT_CWD$)/i.test(key)))
      const outcome = await run('bash', ['-c', script], { cwd: dir, env: { ...env, PORT: String(port) }, timeout: 60_000 }).then(
        ({ stderr }) => ({ killed: false, stderr }),
        (error: { killed?: boolean; stderr?: string }) => ({ killed: error.killed === true, stderr: error.stderr ?? '' }),
      )
      expect(outcome.killed, 'the pasted block still waiting after 60 s').to.equal(false)
      expect(outcome.stderr).to.include(`PORT: port ${port} on 127.0.0.1 is in use by another process`)
    } finally {
      taken.close()
    }
  })
})
