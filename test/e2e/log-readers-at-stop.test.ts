import { expect } from 'chai'
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { EXIT_FLUSH_MS } from '../../apps/server/logger.js'
import { MAIN, useCurrentBuild } from '../support/current-build.js'
import { freePort } from '../support/free-port.js'
import { parsePrometheusText } from '../support/prometheus-text.js'

// What an operator is promised of a SIGTERM: the process exits 0 within the drain, the grace and
// the second the log has to write what it holds, whatever the readers of its stdout and stderr do.
// A log pipeline stopped by the same Ctrl-C (`npm start | pino-pretty`), a log shipper that hangs,
// a supervisor whose log pipe closed: each of them must cost the stop at most that second.

const DRAIN_MS = 1_000
const GRACE_MS = 1_000
const PROMISED_MS = DRAIN_MS + GRACE_MS + EXIT_FLUSH_MS
// A busy two-core machine: starting timers late, scheduling the process late.
const SLACK_MS = 2_000
const LOAD_LINES = 1_000

// A 404's log line names the request id it was sent: with the longest one, about 250 bytes, so a
// thousand of them are more than a pipe holds.
const LONGEST_REQUEST_ID = 'x'.repeat(128)

/** One end of a named pipe the service writes to, read (or not) by the test as a log reader would. */
class LogReader {
  private fd: number
  private text = ''
  readonly writer: number

  constructor(dir: string, name: string) {
    const path = join(dir, name)
    execFileSync('mkfifo', [path])
    this.fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
    this.writer = openSync(path, 'w')
  }

  /** What the reader has taken so far; reading takes what the pipe holds now, without waiting. */
  read(): string {
    if (this.fd < 0) return this.text
    const buffer = Buffer.alloc(64 * 1024)
    for (;;) {
      let count = 0
      try {
        count = readSync(this.fd, buffer)
      } catch {
        break // EAGAIN: nothing more now
      }
      if (count <= 0) break
      this.text += buffer.subarray(0, count).toString('utf8')
    }
    return this.text
  }

  /** The reader goes away: the service's next write to the pipe fails with EPIPE. */
  leave(): void {
    if (this.fd >= 0) closeSync(this.fd)
    this.fd = -1
  }
}

interface Readers {
  readonly stdout: LogReader
  readonly stderr: LogReader
}

describe('a SIGTERM whatever the log readers do', function () {
  this.timeout(60_000)
  useCurrentBuild()
  let dir = ''
  let child: ChildProcess | undefined
  let readers: Readers | undefined
  let reading: NodeJS.Timeout | undefined

  afterEach(function () {
    clearInterval(reading)
    if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    readers?.stdout.leave()
    readers?.stderr.leave()
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
    child = undefined
    readers = undefined
  })

  /**
   * The built service with stdout and stderr on named pipes, started and then made to log
   * LOAD_LINES request lines; `readsStdout` and `readsStderr` say whether the test keeps reading
   * each meanwhile (a reader that does not stalls once the pipe is full). Without `token` the
   * service prints a development token on stderr as it starts. With `stdoutFile`, stdout is that
   * file instead of a pipe.
   */
  const startLogging = async (options: {
    readonly readsStdout: boolean
    readonly readsStderr: boolean
    readonly token: boolean
    readonly before?: (r: Readers) => void
    readonly stdoutFile?: string
  }) => {
    dir = mkdtempSync(join(tmpdir(), 'plant-store-log-readers-'))
    const started = { stdout: new LogReader(dir, 'stdout'), stderr: new LogReader(dir, 'stderr') }
    readers = started
    options.before?.(started)
    const [port, metricsPort] = [await freePort(), await freePort()]
    const stdout = options.stdoutFile === undefined ? started.stdout.writer : openSync(options.stdoutFile, 'w')
    child = spawn(process.execPath, [MAIN], {
      cwd: dirname(MAIN),
      env: {
        PATH: process.env['PATH'] ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: String(metricsPort),
        SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
        ...(options.token ? { PLANT_STORE_TOKENS: 'log-readers-token-0123456789' } : {}),
      },
      stdio: ['ignore', stdout, started.stderr.writer],
    })
    closeSync(started.stdout.writer)
    if (stdout !== started.stdout.writer) closeSync(stdout)
    closeSync(started.stderr.writer)
    const running = child
    const exited = once(running, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
    reading = setInterval(() => {
      if (options.readsStdout) started.stdout.read()
      if (options.readsStderr) started.stderr.read()
    }, 20)
    const url = `http://127.0.0.1:${port}`
    // Ready whatever its stdout says, or whether anything reads it at all.
    for (let until = performance.now() + 20_000, ready = false; !ready; ) {
      if (performance.now() > until || running.exitCode !== null) expect.fail(`the service did not start (exit code ${running.exitCode})`)
      ready = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false)
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    for (let sent = 0; sent < LOAD_LINES; sent += 50) {
      await Promise.all(
        Array.from({ length: 50 }, () => fetch(`${url}/nowhere`, { headers: { 'X-Request-Id': LONGEST_REQUEST_ID }, signal: AbortSignal.timeout(10_000) }).then((r) => r.arrayBuffer())),
      )
    }
    const droppedLines = async () => {
      const metrics = parsePrometheusText(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text())
      return metrics.find((sample) => sample.name === 'plant_store_log_lines_dropped_total')?.value ?? 0
    }
    return { running, exited, droppedLines }
  }

  /** Sends SIGTERM, runs `meanwhile`, and answers the exit code and how long after the signal it came. */
  const stop = async (
    running: ChildProcess,
    exited: Promise<[number | null, NodeJS.Signals | null]>,
    meanwhile: () => Promise<void> = async () => undefined,
  ): Promise<{ code: number | string | null; ms: number }> => {
    const signalled = performance.now()
    running.kill('SIGTERM')
    await meanwhile()
    const waited = PROMISED_MS + SLACK_MS + 5_000
    const [code] = await Promise.race([exited, new Promise<['still running']>((resolve) => setTimeout(() => resolve(['still running']), waited))])
    return { code, ms: performance.now() - signalled }
  }

  // The reader leaves once the service has said it drains: the lines left to write come at the
  // exit, where nothing written before had met the closed pipe.
  const leaveAfterDraining = (...leaving: ReadonlyArray<keyof Readers>) => async () => {
    const current = readers as Readers
    for (const until = performance.now() + DRAIN_MS; performance.now() < until; ) {
      if (current.stdout.read().includes('"msg":"draining"')) break
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(current.stdout.read(), 'the drain, logged before the reader left').to.include('"msg":"draining"')
    for (const name of leaving) current[name].leave()
  }

  it("exits 0 within the drain, the grace and the exit flush when stdout's reader leaves during the drain", async function () {
    const { running, exited } = await startLogging({ readsStdout: true, readsStderr: true, token: true })
    const { code, ms } = await stop(running, exited, leaveAfterDraining('stdout'))
    expect(code, 'exit status after SIGTERM').to.equal(0)
    expect(ms, `ms from SIGTERM to exit, promised ${PROMISED_MS}`).to.be.below(PROMISED_MS + SLACK_MS)
  })

  it("starts, and exits 0 within the drain, the grace and the exit flush, when stderr's reader is gone before the development token is printed", async function () {
    const { running, exited } = await startLogging({ readsStdout: true, readsStderr: false, token: false, before: (r) => r.stderr.leave() })
    const { code, ms } = await stop(running, exited)
    expect(code, 'exit status after SIGTERM').to.equal(0)
    expect(ms, `ms from SIGTERM to exit, promised ${PROMISED_MS}`).to.be.below(PROMISED_MS + SLACK_MS)
  })

  it("exits 0 within the drain, the grace and the exit flush when stdout's reader never reads (the pipe full)", async function () {
    const { running, exited } = await startLogging({ readsStdout: false, readsStderr: true, token: true })
    const { code, ms } = await stop(running, exited)
    expect(code, 'exit status after SIGTERM').to.equal(0)
    expect(ms, `ms from SIGTERM to exit, promised ${PROMISED_MS}`).to.be.below(PROMISED_MS + SLACK_MS)
  })

  it('exits 0 within the drain, the grace and the exit flush when the readers of stdout and stderr both leave during the drain', async function () {
    const { running, exited } = await startLogging({ readsStdout: true, readsStderr: true, token: false })
    expect(readers?.stderr.read(), 'the development token, printed on stderr').to.include('PLANT_STORE_TOKENS')
    const { code, ms } = await stop(running, exited, leaveAfterDraining('stdout', 'stderr'))
    expect(code, 'exit status after SIGTERM').to.equal(0)
    expect(ms, `ms from SIGTERM to exit, promised ${PROMISED_MS}`).to.be.below(PROMISED_MS + SLACK_MS)
  })

  it('starts, serves and exits 0 within the drain, the grace and the exit flush when the pipes of stdout and stderr are closed before the start', async function () {
    const { running, exited } = await startLogging({
      readsStdout: false,
      readsStderr: false,
      token: false,
      before: (r) => {
        r.stdout.leave()
        r.stderr.leave()
      },
    })
    const { code, ms } = await stop(running, exited)
    expect(code, 'exit status after SIGTERM').to.equal(0)
    expect(ms, `ms from SIGTERM to exit, promised ${PROMISED_MS}`).to.be.below(PROMISED_MS + SLACK_MS)
  })

  it('starts, serves and exits 0 within the drain, the grace and the exit flush when stdout refuses every write (/dev/full: ENOSPC)', async function () {
    const { running, exited, droppedLines } = await startLogging({ readsStdout: false, readsStderr: true, token: true, stdoutFile: '/dev/full' })
    expect(await droppedLines(), 'lines dropped, as the metric counts them').to.be.at.least(LOAD_LINES)
    const { code, ms } = await stop(running, exited)
    expect(code, 'exit status after SIGTERM').to.equal(0)
    expect(ms, `ms from SIGTERM to exit, promised ${PROMISED_MS}`).to.be.below(PROMISED_MS + SLACK_MS)
  })
})
