// A SIGTERM in the middle of a scenario, while the readers of the service's stdout and stderr do
// what log pipelines do at such a moment: keep reading, go away (the same Ctrl-C stopped them, a
// supervisor's pipe closed), go away once the drain is logged, or stop reading. The promise it
// holds the service to is the operator's: the process exits 0 within the drain, the grace and the
// second the log may take to write what it holds.
import fc from 'fast-check'
import { setTimeout as sleep } from 'node:timers/promises'
import { EXIT_FLUSH_MS } from '../../../apps/server/logger.js'
import type { RunningService } from './service-under-fuzz.js'
import { FUZZ_SHUTDOWN } from './service-under-fuzz.js'

/** What the reader of a stream does from the signal on. */
export type ReaderFate = 'reads' | 'gone' | 'leaves-while-draining' | 'stalls'

export interface Stop {
  /** The SIGTERM is sent after this action (the last one, if there are fewer). */
  readonly afterAction: number
  readonly stdout: ReaderFate
  readonly stderr: ReaderFate
}

export const stopMidRun = (maxActions: number): fc.Arbitrary<Stop> =>
  fc.record({
    afterAction: fc.nat({ max: Math.max(0, maxActions - 1) }),
    stdout: fc.constantFrom<ReaderFate>('reads', 'gone', 'leaves-while-draining', 'stalls'),
    stderr: fc.constantFrom<ReaderFate>('reads', 'gone', 'stalls'),
  })

/** What the service promises: exit within the drain, the grace and the exit flush. */
export const PROMISED_STOP_MS = FUZZ_SHUTDOWN.drainMs + FUZZ_SHUTDOWN.graceMs + EXIT_FLUSH_MS

// A busy shared machine starts timers and schedules processes late.
const STOP_SLACK_MS = 2_000

const applyFate = (stream: NodeJS.ReadableStream & { destroy: () => void }, fate: ReaderFate): void => {
  if (fate === 'gone') stream.destroy()
  else if (fate === 'stalls') stream.pause()
}

// How long a reader that leaves once the drain is logged looks for that line.
const DRAIN_LOGGED_WITHIN_MS = 2_000

/** Sends the SIGTERM, the readers doing as `stop` says; answers when it was sent. */
export const signalStop = (service: RunningService, stop: Stop): number => {
  const { child } = service.process
  applyFate(child.stdout as NodeJS.ReadableStream & { destroy: () => void }, stop.stdout)
  applyFate(child.stderr as NodeJS.ReadableStream & { destroy: () => void }, stop.stderr)
  const signalled = performance.now()
  child.kill('SIGTERM')
  if (stop.stdout === 'leaves-while-draining') {
    void (async () => {
      for (const until = performance.now() + DRAIN_LOGGED_WITHIN_MS; performance.now() < until; await sleep(10)) {
        if (service.process.stdout().includes('"msg":"draining"')) break
      }
      child.stdout?.destroy()
    })()
  }
  return signalled
}

/** What is wrong with how the service ended after the SIGTERM sent at `signalled`: nothing, or why. */
export const stopProblems = async (service: RunningService, signalled: number): Promise<ReadonlyArray<string>> => {
  const bound = PROMISED_STOP_MS + STOP_SLACK_MS
  const waited = Math.max(0, signalled + bound - performance.now())
  let timer: NodeJS.Timeout | undefined
  const ended = await Promise.race([
    service.process.exited.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waited))),
  ])
  // The losing timer would hold the fuzzer's process up to the bound after its last scenario.
  clearTimeout(timer)
  const ms = (performance.now() - signalled).toFixed(0)
  if (!ended) {
    return [`the service had not exited ${ms} ms after SIGTERM (promised within ${PROMISED_STOP_MS} ms, the drain, the grace and the exit flush, with ${STOP_SLACK_MS} ms of slack)`]
  }
  const { exitCode, signalCode } = service.process.child
  if (exitCode !== 0) {
    const how = signalCode === null ? `exited with code ${exitCode}` : `was killed by ${signalCode}`
    return [`the service ${how} ${ms} ms after SIGTERM, not 0; the end of its stderr:\n${service.process.stderr().slice(-2_000)}`]
  }
  return []
}
