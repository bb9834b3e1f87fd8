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

/**
 * What to tell the operator when MAX_CONNECTIONS cannot be reached because the process may not
 * open that many files: connections past the limit would fail to be accepted (EMFILE), well
 * before the cap that shares them fairly.
 */
export const connectionsBeyondFileLimit = (maxConnections: number, limit: number | undefined): string | undefined =>
  limit !== undefined && maxConnections + RESERVED_FILES > limit
    ? `MAX_CONNECTIONS (${maxConnections}) and the ${RESERVED_FILES} files the process needs beside them exceed its open-files limit (${limit}): ` +
      `raise the limit (ulimit -n, LimitNOFILE=, docker --ulimit nofile=) or lower MAX_CONNECTIONS below ${Math.max(1, limit - RESERVED_FILES)}`
    : undefined
