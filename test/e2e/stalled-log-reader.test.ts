import { expect } from 'chai'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { MAIN, useCurrentBuild } from '../support/current-build.js'
import { parsePrometheusText } from '../support/prometheus-text.js'

// stdout is a FIFO whose reader stops reading, as a stuck log shipper does. The service must keep
// its memory (lines beyond LOG_BUFFER_LIMIT dropped and counted), say what it dropped once the
// reader catches up, and still stop on SIGTERM.

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })

const rssKb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)

// Reads whatever the FIFO holds now, without waiting.
const drain = (fd: number): string => {
  const chunks: Buffer[] = []
  const buffer = Buffer.alloc(64 * 1024)
  for (;;) {
    try {
      const read = readSync(fd, buffer)
      if (read <= 0) break
      chunks.push(Buffer.from(buffer.subarray(0, read)))
    } catch {
      break // EAGAIN: nothing more now
    }
  }
  return Buffer.concat(chunks).toString('utf8')
}

describe('a stdout reader that stalls', function () {
  this.timeout(60_000)
  useCurrentBuild()
  let dir = ''
  let child: ChildProcess | undefined
  let reader = -1

  after(function () {
    if (child?.exitCode === null) child.kill('SIGKILL')
    if (reader >= 0) closeSync(reader)
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  it('drops and counts lines past LOG_BUFFER_LIMIT, warns once the reader catches up, and still stops on SIGTERM', async function () {
    dir = mkdtempSync(join(tmpdir(), 'plant-store-fifo-'))
    const fifo = join(dir, 'stdout')
    execFileSync('mkfifo', [fifo])
    reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
    const writer = openSync(fifo, 'w')
    const [port, metricsPort] = [await freePort(), await freePort()]
    child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env['PATH'] ?? '',
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        PLANT_STORE_TOKENS: 'stalled-reader-token-0123456789',
        LOG_BUFFER_LIMIT: '256KiB',
        SHUTDOWN_DRAIN_MS: '0',
        SHUTDOWN_GRACE_MS: '1000',
        MONGODB_TIMEOUT_MS: '1000',
      },
      stdio: ['ignore', writer, 'pipe'],
    })
    closeSync(writer)
    const exited = once(child, 'exit')
    const url = `http://127.0.0.1:${port}`
    let stderr = ''
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    for (let attempt = 0, ready = false; !ready; attempt += 1) {
      if (attempt > 100 || child.exitCode !== null) expect.fail(`the service did not start: ${stderr}`)
      ready = await fetch(`${url}/healthz`).then((r) => r.ok, () => false)
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const pid = child.pid as number
    const before = rssKb(pid)

    // 404s: one log line each, about 200 bytes; 6,000 of them are far more than the pipe and the buffer hold.
    for (let wave = 0; wave < 120; wave += 1) {
      await Promise.all(Array.from({ length: 50 }, () => fetch(`${url}/nowhere`).then((r) => r.arrayBuffer())))
    }
    const grownMb = (rssKb(pid) - before) / 1024
    expect(grownMb, 'MB the process grew by').to.be.below(64)
    const metrics = parsePrometheusText(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text())
    const dropped = metrics.find((sample) => sample.name === 'plant_store_log_lines_dropped_total')?.value ?? 0
    expect(dropped, 'lines dropped, as the metric counts them').to.be.greaterThan(1000)

    // The reader catches up: what was buffered arrives, then one warning naming the count.
    let seen = ''
    for (let attempt = 0; attempt < 50 && !seen.includes('log lines dropped'); attempt += 1) {
      seen += drain(reader)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const warning = seen.split('\n').find((line) => line.includes('"msg":"log lines dropped"'))
    expect(warning, 'the warning once the reader caught up').to.be.a('string')
    expect((JSON.parse(warning ?? '{}') as { count: number }).count).to.be.greaterThan(1000)

    // It stalls again, with the buffer full, and the service is asked to stop.
    for (let wave = 0; wave < 60; wave += 1) {
      await Promise.all(Array.from({ length: 50 }, () => fetch(`${url}/nowhere`).then((r) => r.arrayBuffer())))
    }
    const signalled = performance.now()
    child.kill('SIGTERM')
    const [code] = (await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(['still running']), 10_000))])) as [unknown]
    expect(code, 'exit status after SIGTERM').to.equal(0)
    expect(performance.now() - signalled, 'ms until exit: the grace (1 s) and the exit flush (1 s) at most, and some slack').to.be.below(5000)
  })
})
