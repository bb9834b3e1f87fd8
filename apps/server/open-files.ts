import { readFileSync } from 'node:fs'

/**
 * This process's soft limit on open files, as Linux states it in /proc/self/limits; `undefined`
 * where it cannot be read (another system) or has no limit. Node offers no getrlimit.
 */
export const openFilesLimit = (limitsText: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined => {
  try {
    const soft = /^Max open files\s+(\S+)/m.exec(limitsText())?.[1]
    return soft === undefined || soft === 'unlimited' ? undefined : Number(soft)
  } catch {
    return undefined
  }
}

// Files the process holds beside its connections: stdio, the event loop's, storage's sockets, logs.
const RESERVED_FILES = 64

/** The connection cap the service keeps, and what to tell the operator when it is not the one asked for. */
export interface ConnectionCap {
  readonly maxConnections: number
  readonly warning?: string
}

/**
 * MAX_CONNECTIONS held within the process's open-files limit. Connections past the limit would fail
 * to be accepted (EMFILE) before the cap that shares slots fairly is reached, so that no stalled or
 * idle connection would give way to a newcomer: the cap is lowered to what the limit allows, and the
 * operator told how to have more.
 */
export const connectionCapWithin = (maxConnections: number, limit: number | undefined): ConnectionCap => {
  if (limit === undefined || maxConnections + RESERVED_FILES <= limit) return { maxConnections }
  const allowed = Math.max(1, limit - RESERVED_FILES)
  return {
    maxConnections: allowed,
    warning:
      `MAX_CONNECTIONS (${maxConnections}) and the ${RESERVED_FILES} files the process needs beside them exceed its open-files limit (${limit}): ` +
      `the cap is ${allowed}; raise the limit (ulimit -n, LimitNOFILE=, docker --ulimit nofile=) for more`,
  }
}
