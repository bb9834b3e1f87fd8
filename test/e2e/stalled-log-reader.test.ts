import { expect } from 'chai'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { LOG_BUFFER_BYTES } from '../../apps/server/config.js'
import { MAIN, useCurrentBuild } from '../support/current-build.js'
import { parsePrometheusText } from '../support/prometheus-text.js'
import { freePort } from '../support/free-port.js'

// stdout is a FIFO whose reader stops reading, as a stuck log shipper does. The service must keep
// its memory (lines beyond its 16 MiB log buffer dropped and counted), say what it dropped once the
// reader catches up, and still stop on SIGTERM.


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

// A 404's log line names the request id it was sent: with the longest one, about 250 bytes.
const LONGEST_REQUEST_ID = 'x'.repeat(128)
const WAVE = 50

describe('a stdout reader that stalls', function () {
  this.timeout(180_000)
  useCurrentBuild()
  let dir = ''
  let child: ChildProcess | undefined
  let reader = -1

  after(function () {
    if (child?.exitCode === null) child.kill('SIGKILL')
    if (reader >= 0) closeSync(reader)
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  it('drops and counts lines past the log buffer, warns once the reader catches up, and still stops on SIGTERM', async function () {
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
    const wave = () =>
      Promise.all(
        Array.from({ length: WAVE }, () => fetch(`${url}/nowhere`, { headers: { 'X-Request-Id': LONGEST_REQUEST_ID } }).then((r) => r.arrayBuffer())),
      )
    const droppedLines = async () => {
      const metrics = parsePrometheusText(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text())
      return metrics.find((sample) => sample.name === 'plant_store_log_lines_dropped_total')?.value ?? 0
    }

    // 404s, one log line each: some 67,000 fill the pipe and the buffer; sent until the metric
    // counts more than 1,000 dropped, or 200,000 at most.
    let dropped = 0
    for (let sent = 0; dropped <= 1000 && sent < 200_000; sent += 20 * WAVE) {
      for (let waves = 0; waves < 20; waves += 1) await wave()
      dropped = await droppedLines()
    }
    // The 16 MiB buffer and the heap the flood itself takes, which newer V8s let grow further
    // before collecting; an unbounded buffer is caught by the count of dropped lines, which it
    // would leave at 0.
    const grownMb = (rssKb(pid) - before) / 1024
    expect(grownMb, 'MB the process grew by').to.be.below(112)
    expect(dropped, 'lines dropped, as the metric counts them').to.be.greaterThan(1000)

    // The reader catches up: what was buffered (16 MiB) arrives, then one warning naming the count.
    let partial = ''
    let warning: string | undefined
    for (const until = performance.now() + 30_000; warning === undefined && performance.now() < until; ) {
      const lines = (partial + drain(reader)).split('\n')
      partial = lines.pop() ?? ''
      warning = lines.find((line) => line.includes('"msg":"log lines dropped"'))
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(warning, 'the warning once the reader caught up').to.be.a('string')
    const caughtUp = JSON.parse(warning ?? '{}') as { count: number; detail: string }
    expect(caughtUp.count).to.be.greaterThan(1000)
    expect(caughtUp.detail, 'the buffer the warning names is the one the service keeps').to.include(`(${LOG_BUFFER_BYTES / (1024 * 1024)} MiB)`)

    // It stalls again, the pipe full and lines waiting in the buffer, and the service is asked to stop.
    for (let waves = 0; waves < 60; waves += 1) await wave()
    const signalled = performance.now()
    child.kill('SIGTERM')
    const [code] = (await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(['still running']), 10_000))])) as [unknown]
    expect(code, 'exit status after SIGTERM').to.equal(0)
    expect(performance.now() - signalled, 'ms until exit: the grace (1 s) and the exit flush (1 s) at most, and some slack').to.be.below(5000)
  })
})
