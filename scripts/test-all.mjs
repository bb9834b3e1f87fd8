// `npm run test:all`: `npm test`, then the end-to-end tier whatever `npm test` answered, so a
// failure in one tier never hides the other's results. Exits non-zero if either failed, and names
// which on stderr.
import { spawnSync } from 'node:child_process'
import { npmCommand } from './npm-command.mjs'

const STEPS = [
  { name: 'npm test', args: ['test'] },
  { name: 'npm run test:e2e', args: ['run', 'test:e2e'] },
]

const run = (args) => {
  const [command, commandArgs] = npmCommand(args)
  const { status, error } = spawnSync(command, commandArgs, { stdio: 'inherit' })
  if (error !== undefined) process.stderr.write(`test:all: could not start ${command}: ${error.message}\n`)
  return status ?? 1
}

const failed = STEPS.filter(({ args }) => run(args) !== 0).map(({ name }) => name)
if (failed.length > 0) {
  process.stderr.write(`test:all: failed: ${failed.join(' and ')}\n`)
  process.exit(1)
}
process.stderr.write(`test:all: passed: ${STEPS.map(({ name }) => name).join(' and ')}\n`)
