// The resident memory of a process, sampled while the soak runs (Linux: /proc/<pid>/status).
import { readFileSync } from 'node:fs'

/** The resident set of `pid` in MiB, or undefined where /proc cannot tell. */
export const rssMiB = (pid: number): number | undefined => {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match?.[1] === undefined ? undefined : Number(match[1]) / 1024
  } catch {
    return undefined
  }
}

/** Samples `pid` every second until stopped; `samples()` gives them as [seconds, MiB]. */
export const sampleRss = (pid: number) => {
  const started = performance.now()
  const samples: Array<readonly [number, number]> = []
  const timer = setInterval(() => {
    const mib = rssMiB(pid)
    if (mib !== undefined) samples.push([Math.round((performance.now() - started) / 1000), mib])
  }, 1000)
  return {
    samples: (): ReadonlyArray<readonly [number, number]> => samples,
    stop: () => clearInterval(timer),
  }
}
