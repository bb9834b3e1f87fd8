import type { Logger } from '../../adapters/http/index.js'

/** Writes one JSON object per line, the shape log collectors read without configuration. */
export const makeJsonLogger = (write: (line: string) => void): Logger => {
  const entry =
    (level: 'info' | 'warn' | 'error') =>
    (message: string, fields: Readonly<Record<string, unknown>> = {}): void =>
      write(`${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields }, jsonSafe)}\n`)
  return { info: entry('info'), warn: entry('warn'), error: entry('error') }
}

// A bigint (a plant id in a cause, say) would make JSON.stringify throw inside the logger.
const jsonSafe = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value)
