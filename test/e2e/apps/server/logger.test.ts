import { expect } from 'chai'
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { Writable } from 'node:stream'
import { promisify } from 'node:util'
import { asLoggerPort, makePino } from '../../../../apps/server/logger.js'
import type { LogLevel } from '../../../../apps/server/env-codecs.js'

/** A pino destination that keeps each line, parsed. */
const collect = () => {
  const lines: Array<Record<string, unknown>> = []
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  return { lines, destination }
}

const loggerAt = (level: LogLevel) => {
  const { lines, destination } = collect()
  return { lines, pino: makePino(level, destination) }
}

const FIXTURE = new URL('./log-then-exit.fixture.ts', import.meta.url).pathname

describe('the service logger (pino)', function () {
  it('writes one JSON object per line: level as a word, ISO time, msg and the fields', async function () {
    const { lines, pino } = loggerAt('info')
    asLoggerPort(pino).info('request', { requestId: 'r1', status: 200 })
    pino.flush()
    expect(lines).to.have.length(1)
    expect(lines[0]).to.include({ level: 'info', msg: 'request', requestId: 'r1', status: 200 })
    expect(lines[0]?.['time']).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(lines[0]).to.not.have.any.keys('pid', 'hostname')
  })

  it('drops lines below LOG_LEVEL', function () {
    const { lines, pino } = loggerAt('warn')
    const log = asLoggerPort(pino)
    log.info('request', { requestId: 'quiet' })
    log.warn('request refused: dependency unavailable', { requestId: 'loud' })
    log.error('request failed', { requestId: 'louder' })
    expect(lines.map((line) => line['requestId'])).to.deep.equal(['loud', 'louder'])
    const silent = loggerAt('silent')
    asLoggerPort(silent.pino).error('request failed')
    expect(silent.lines).to.have.length(0)
  })

  it('redacts credentials and cookies by configuration, wherever a line carries them', function () {
    const { lines, pino } = loggerAt('info')
    const secret = 'Bearer s3cr3t-token-0123456789'
    asLoggerPort(pino).info('leaky', {
      authorization: secret,
      Authorization: secret,
      token: 's3cr3t-token-0123456789',
      cookie: 'session=s3cr3t',
      headers: { authorization: secret, cookie: 'session=s3cr3t', 'set-cookie': ['session=s3cr3t'] },
      req: { headers: { Authorization: secret, Cookie: 'session=s3cr3t' }, token: 's3cr3t' },
      res: { headers: { 'Set-Cookie': 'session=s3cr3t' } },
      subject: 'alice',
    })
    const text = JSON.stringify(lines)
    expect(text).to.not.include('s3cr3t')
    expect(lines[0]).to.include({ subject: 'alice', authorization: '[redacted]', token: '[redacted]' })
  })

  it('writes to stdout every line logged before the process exits, in order, multi-byte text intact', async function () {
    this.timeout(20_000)
    const count = 5_000
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', FIXTURE, 'burst', String(count)],
      { maxBuffer: 64 * 1024 * 1024 },
    )
    const lines = stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines).to.have.length(count)
    lines.forEach((line, index) => expect(line).to.include({ msg: 'request', index, name: `Plante grimpante ${index} — été 🌱` }))
  })

  it('writes a line that no other follows within moments, while the process runs on', async function () {
    this.timeout(20_000)
    const started = performance.now()
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, 'lone', '15000'], { stdio: ['ignore', 'pipe', 'inherit'] })
    try {
      const [chunk] = (await once(child.stdout, 'data')) as [Buffer]
      expect(JSON.parse(chunk.toString('utf8'))).to.include({ msg: 'lone line' })
      // Written while the process waits, not by its exit 15 s after the line (starting takes a
      // second or two).
      expect(performance.now() - started).to.be.below(8_000)
    } finally {
      child.kill()
    }
  })

  it('writes the last line of a flood that met a slow reader, while the process runs on', async function () {
    this.timeout(30_000)
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, 'flood', '401'], { stdio: ['ignore', 'pipe', 'inherit'] })
    try {
      // The reader waits before it reads: the writes of the flood block meanwhile, and the last
      // line is logged while one is under way.
      child.stdout.pause()
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      let text = ''
      const lastLine = new Promise<number>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8')
          if (text.includes('"msg":"last line"')) resolve(performance.now())
        })
      })
      const reading = performance.now()
      child.stdout.resume()
      const arrived = await Promise.race([lastLine, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 8_000))])
      // The process exits 15 s after the line: only a flush while it runs brings it sooner.
      expect(arrived, 'the last line, before the process exits').to.be.a('number')
      expect(text.split('\n').filter((line) => line.includes('"msg":"request"'))).to.have.length(401)
      expect((arrived ?? Infinity) - reading).to.be.below(8_000)
    } finally {
      child.kill()
    }
  })

  it('keeps the process running when the reader of stdout goes away (EPIPE), and exits normally', async function () {
    this.timeout(20_000)
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, 'steady', '1500'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    // Like `npm start | head -1`: the reader takes the first lines and leaves.
    await once(child.stdout, 'data')
    child.stdout.destroy()
    const [code] = (await once(child, 'exit')) as [number | null]
    expect({ code, stderr }).to.deep.equal({ code: 0, stderr: 'still logging\n' })
  })
})
