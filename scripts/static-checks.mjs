// `npm test`'s first step: the type check and ESLint, side by side. Each reads the whole program
// and neither needs the other's answer, so on two cores they take about the time of the longer.
// The tool groups both need are installed once, first (as their pre-scripts would, but not twice
// at once into the same folders). Each check's output is printed whole when it ends, so the two
// never interleave. Exits non-zero if either failed, and names which on stderr.
import { spawn, spawnSync } from 'node:child_process'
import { npmCommand } from './npm-command.mjs'

const TOOLS = ['bench', 'tools/browser', 'tools/package-checks']
const CHECKS = [
  { name: 'npm run typecheck', args: ['run', '--ignore-scripts', 'typecheck'] },
  { name: 'npm run lint', args: ['run', '--ignore-scripts', 'lint'] },
]

const installed = spawnSync(process.execPath, ['scripts/install-tools.mjs', ...TOOLS], { stdio: 'inherit' })
if (installed.status !== 0) process.exit(installed.status ?? 1)

const check = ({ args }) =>
  new Promise((resolve) => {
    const [command, commandArgs] = npmCommand(args)
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] })
    const output = []
    child.stdout.on('data', (chunk) => output.push({ to: process.stdout, chunk }))
    child.stderr.on('data', (chunk) => output.push({ to: process.stderr, chunk }))
    child.on('error', (error) => {
      process.stderr.write(`static checks: could not start ${command}: ${error.message}\n`)
      resolve(1)
    })
    child.on('close', (status) => {
      for (const { to, chunk } of output) to.write(chunk)
      resolve(status ?? 1)
    })
  })

const statuses = await Promise.all(CHECKS.map(check))
const failed = CHECKS.filter((_, index) => statuses[index] !== 0).map(({ name }) => name)
if (failed.length > 0) {
  process.stderr.write(`static checks: failed: ${failed.join(' and ')}\n`)
  process.exit(1)
}
