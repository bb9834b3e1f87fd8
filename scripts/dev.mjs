// `npm run dev`: the service from its TypeScript sources under `tsx watch`, restarted on every
// change, its JSON lines made readable by pino-pretty. One process owns both children, so a
// signal npm passes on (npm signals only the process it started) stops them both: as a shell
// pipeline, tsx would be left running and holding the port.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const bin = (pkg) => {
  const declared = require(`${pkg}/package.json`).bin
  return join(dirname(require.resolve(`${pkg}/package.json`)), typeof declared === 'string' ? declared : declared[pkg])
}

// No production drain between restarts; local settings from .env when there is one (what the
// environment already sets wins, as Node's --env-file does).
const env = { ...process.env, SHUTDOWN_DRAIN_MS: process.env.SHUTDOWN_DRAIN_MS ?? '0' }
const envFile = existsSync('.env') ? ['--env-file=.env'] : []

const service = spawn(process.execPath, [bin('tsx'), 'watch', '--clear-screen=false', ...envFile, 'apps/server/main.ts'], {
  env,
  stdio: ['inherit', 'pipe', 'inherit'],
})
// pino-pretty outlives a terminal's Ctrl-C (it reaches the whole group) until the service's last
// lines are printed: it ends when its input does.
const pretty = spawn(process.execPath, [bin('pino-pretty')], { stdio: ['pipe', 'inherit', 'inherit'], detached: true })
service.stdout.pipe(pretty.stdin)

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => service.kill(signal))
service.on('exit', (code, signal) => {
  pretty.on('exit', () => process.exit(code ?? (signal === null ? 1 : 0)))
})
