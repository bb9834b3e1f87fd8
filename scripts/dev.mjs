// `npm run dev`: the service from its TypeScript sources under `tsx watch`, restarted on every
// change, its JSON lines made readable by pino-pretty. One process owns both children, so a
// signal npm passes on (npm signals only the process it started) stops them both: as a shell
// pipeline, tsx would be left running and holding the port.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { parseEnv } from 'node:util'

const require = createRequire(import.meta.url)
const bin = (pkg) => {
  const declared = require(`${pkg}/package.json`).bin
  return join(dirname(require.resolve(`${pkg}/package.json`)), typeof declared === 'string' ? declared : declared[pkg])
}

// No production drain between restarts. The service reads .env itself, on every restart.
const env = { ...process.env, SHUTDOWN_DRAIN_MS: process.env.SHUTDOWN_DRAIN_MS ?? '0' }

// With no token configured the service would make a new development token at each restart, and a
// client being developed against it would lose its token on every save: one is made here instead,
// for as long as `npm run dev` runs.
const local = existsSync('.env') ? parseEnv(readFileSync('.env', 'utf8')) : {}
const configured = (name) => (process.env[name] ?? local[name] ?? '') !== ''
const authConfigured = configured('PLANT_STORE_TOKENS') || [...Object.keys(process.env), ...Object.keys(local)].some((name) => name.startsWith('JWT_') && configured(name))
if (!authConfigured) {
  env.PLANT_STORE_TOKENS = randomBytes(32).toString('base64url')
  process.stderr.write(
    `\nDevelopment token (kept across restarts until npm run dev stops; set PLANT_STORE_TOKENS for real use):\n  ${env.PLANT_STORE_TOKENS}\n\n`,
  )
}

const service = spawn(process.execPath, [bin('tsx'), 'watch', '--clear-screen=false', 'apps/server/main.ts'], {
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
