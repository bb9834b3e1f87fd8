// Which cores each process of a run may use: the server under test on a core of its own, the load
// generator (and the harness, which drives it) on another, the MongoDB wire peer on the rest, or
// beside the load generator when only two cores are allowed. Pinning needs `taskset` (util-linux);
// without it, or with fewer than two cores, every process floats and the report says so.
import { execFileSync } from 'node:child_process'

export interface Pinning {
  /** Cores for the server under test, as taskset's list (`1`), or `undefined`: not pinned. */
  readonly server: string | undefined
  /** Cores for the load generator and the harness. */
  readonly load: string | undefined
  /** Cores for the MongoDB wire peer. */
  readonly peer: string | undefined
  /** One sentence for the report. */
  readonly description: string
}

/** Reads taskset's list form (`0-3,6`) into core numbers. */
export const parseCoreList = (list: string): number[] | undefined => {
  const cores: number[] = []
  for (const part of list.trim().split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim())
    if (match?.[1] === undefined) return undefined
    const first = Number(match[1])
    const last = match[2] === undefined ? first : Number(match[2])
    if (last < first) return undefined
    for (let core = first; core <= last; core++) cores.push(core)
  }
  return cores.length === 0 ? undefined : cores
}

const NOT_PINNED = (why: string): Pinning => ({
  server: undefined,
  load: undefined,
  peer: undefined,
  description: `processes not pinned (${why}); ratios vary more from run to run`,
})

/**
 * Splits the cores this process may use. `allowed` is `undefined` when taskset is missing or
 * cannot read this process's affinity.
 */
export const planPinning = (allowed: ReadonlyArray<number> | undefined): Pinning => {
  if (allowed === undefined) return NOT_PINNED('taskset, from util-linux, is not on PATH or does not work here')
  const [load, server, ...rest] = allowed
  if (load === undefined || server === undefined) return NOT_PINNED(`only core ${allowed.join(',')} is allowed`)
  const peer = rest.length === 0 ? String(load) : rest.join(',')
  return {
    server: String(server),
    load: String(load),
    peer,
    description:
      `taskset: the server on core ${server}, the load generator and the harness on core ${load}, ` +
      (rest.length === 0 ? `the wire peer sharing core ${load} with the load generator` : `the wire peer on core(s) ${peer}`),
  }
}

/** The cores this process may run on, from `taskset -p`, or `undefined` without a working taskset. */
export const allowedCores = (): number[] | undefined => {
  try {
    const out = execFileSync('taskset', ['-c', '-p', String(process.pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    const list = /:\s*([\d,\s-]+)$/m.exec(out.trim())?.[1]
    return list === undefined ? undefined : parseCoreList(list)
  } catch {
    return undefined
  }
}

/** The command and arguments that run `command` on `cores`, or unchanged when not pinned. */
export const pinned = (
  cores: string | undefined,
  command: string,
  args: ReadonlyArray<string>,
): { readonly command: string; readonly args: ReadonlyArray<string> } =>
  cores === undefined ? { command, args } : { command: 'taskset', args: ['-c', cores, command, ...args] }

/** Moves this process (every thread) onto `cores`; answers whether it worked. */
export const pinSelf = (cores: string | undefined): boolean => {
  if (cores === undefined) return false
  try {
    execFileSync('taskset', ['-a', '-c', '-p', cores, String(process.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
