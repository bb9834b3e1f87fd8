import * as E from 'fp-ts/lib/Either.js'
import { commandOf, helpText } from './command-line.js'
import { loadConfig, RETIRED_VARIABLES, SERVICE_SETTINGS, SERVICE_VARIABLES } from './config.js'
import { readEnvFile } from './env-file.js'
import { announcerOf, asLoggerPort, asyncStdout, makePino } from './logger.js'
import { startService } from './service.js'
import { stopSignals } from './stop-signals.js'
import { systemClock } from '../../wire/index.js'
import { unknownVariables } from './unknown-variables.js'
import { serviceVersion } from './version.js'

// `npm start`: configuration, service, and a graceful stop on SIGINT or SIGTERM.

// What the service writes on stderr (a refused configuration, the development token) is for
// whoever reads it. When that reader is gone the write fails (EPIPE), and unheard the failure would
// end the service; it is given up instead, as a log line is when stdout's reader is gone.
process.stderr.on('error', () => undefined)

function refuse(messages: ReadonlyArray<string>, problem = 'invalid configuration'): never {
  process.stderr.write(`plant-store: ${problem}\n${messages.map((m) => `  ${m}\n`).join('')}`)
  process.exit(1)
}

// Asked before any setting is read: a person asking what the service reads must get the answer
// even when the settings are wrong.
const command = commandOf(process.argv.slice(2))
if (command !== 'start') {
  process.stdout.write(command === 'help' ? helpText(serviceVersion(), SERVICE_SETTINGS) : `${serviceVersion()}\n`)
  process.exit(0)
}

// Local settings: `.env` in the working directory, when there is one; a variable already set in
// the environment wins over the file.
const ENV_FILE = '.env'
const envFile = readEnvFile(ENV_FILE)
if (E.isLeft(envFile)) refuse([envFile.left])
for (const [name, value] of Object.entries(envFile.right ?? {})) process.env[name] ??= value

const config = loadConfig(process.env)
if (E.isLeft(config)) refuse(config.left)
// The one clock of the process: every timed policy of the service reads it and sets its timers on it.
const clock = systemClock
const stdout = asyncStdout(config.right.logBufferBytes, clock)
const pinoLog = makePino(config.right.logLevel, stdout)
const log = asLoggerPort(pinoLog)
// A misspelt variable would otherwise leave its default in place without a word.
for (const { name, didYouMean, noLongerRead } of unknownVariables(process.env, SERVICE_VARIABLES, RETIRED_VARIABLES)) {
  if (noLongerRead) log.warn('variable no longer read by the service', { variable: name, detail: 'its limit is a constant now' })
  else log.warn('variable not read by the service', { variable: name, ...(didYouMean === undefined ? {} : { didYouMean }) })
}
const bufferMiB = config.right.logBufferBytes / (1024 * 1024)
stdout.onCaughtUp((count) => log.warn('log lines dropped', { count, detail: `stdout's reader fell behind the log buffer (${bufferMiB} MiB)` }))
const started = await startService(config.right, log, announcerOf(pinoLog, config.right.logLevel), stdout.dropped, clock)
if (E.isLeft(started)) refuse([started.left.message], started.left.problem)
const service = started.right

// A second signal soon after the first is its copy (a terminal's Ctrl-C reaches npm and node
// alike); a later one asks to exit without waiting.
const meaningOf = stopSignals(clock)
const stop = (signal: NodeJS.Signals): void => {
  const meaning = meaningOf()
  if (meaning === 'repeat') return
  if (meaning === 'exit now') {
    log.warn('second signal: exiting without waiting', { signal })
    process.exit(1)
  }
  log.info('shutting down', { signal })
  service.close().then(
    () => process.exit(0),
    (error: unknown) => {
      log.error('shutdown failed', { cause: String(error) })
      process.exit(1)
    },
  )
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
