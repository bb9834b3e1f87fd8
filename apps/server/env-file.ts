import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { parseEnv } from 'node:util'
import * as E from 'fp-ts/lib/Either.js'

/**
 * Local settings are a few lines; a file this large is not one, and reading it whole would cost
 * the start its memory.
 */
export const ENV_FILE_MAX_BYTES = 1024 * 1024

/**
 * The `NAME=value` settings of the file at `path`, parsed as `process.loadEnvFile` parses them;
 * `undefined` when there is no such file. Only a regular file of at most `maxBytes` is read:
 * anything else answers why, naming the file, so the start stops with that instead of waiting on a
 * FIFO for a writer that never comes, or reading a device that never ends.
 */
export const readEnvFile = (path: string, maxBytes: number = ENV_FILE_MAX_BYTES): E.Either<string, Record<string, string> | undefined> => {
  let fd: number
  try {
    // Without O_NONBLOCK, opening a FIFO waits for a writer before anything can be checked.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return E.right(undefined)
    return E.left(`${path}: cannot be read (${messageOf(error)})`)
  }
  try {
    // What was opened is what is checked: a file swapped after a check by name would not be.
    const stats = fstatSync(fd)
    if (!stats.isFile()) return E.left(`${path}: not a regular file (${kindOf(stats)}); local settings are read from a file only`)
    const bytes = Buffer.alloc(Math.min(stats.size, maxBytes) + 1)
    let length = 0
    // A file may grow after it was measured: what is read is held to the bound too.
    for (let read = -1; read !== 0 && length < bytes.length; length += read) {
      read = readSync(fd, bytes, length, bytes.length - length, null)
    }
    if (length > maxBytes) return E.left(`${path}: larger than ${maxBytes} bytes; local settings are a few lines`)
    return E.right(parseEnv(bytes.toString('utf8', 0, length)) as Record<string, string>)
  } catch (error) {
    return E.left(`${path}: cannot be read (${messageOf(error)})`)
  } finally {
    closeSync(fd)
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const kindOf = (stats: Stats): string =>
  (
    [
      [stats.isDirectory(), 'a directory'],
      [stats.isFIFO(), 'a FIFO'],
      [stats.isCharacterDevice(), 'a character device'],
      [stats.isBlockDevice(), 'a block device'],
      [stats.isSocket(), 'a socket'],
    ] as const
  ).find(([is]) => is)?.[1] ?? 'not a file'
