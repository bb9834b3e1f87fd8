// `npm run bench:attacks`: a legitimate client's rate beside each attack a client can keep up
// (bench/attacks/attacks.ts), over its rate alone, measured in the same run against the service
// as `npm start` runs it (built, in memory, request log on). The service runs on a core of its
// own; the harness, its legitimate client and the attacker's process on another. Each round is
// alone, then beside the attack, so a drift of the machine shows as rounds that disagree. The
// report, a Markdown table for docs/limits.md, goes to stdout; nothing here asserts a rate.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { ATTACKS, TOKEN, type Attack } from './attacks/attacks.js'
import { legitimateRate } from './attacks/legitimate.js'
import { allowedCores, pinned, pinSelf, planPinning } from './http/pinning.js'
import { startServer } from './http/processes.js'

const USAGE = `usage: npm run bench:attacks -- [--rounds N] [--phase-ms MS] [--attacks ${ATTACKS.map((attack) => attack.key).join(',')}]`
const GOAL = 0.9

const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name)
  return at === -1 ? undefined : process.argv[at + 1]
}
if (process.argv.includes('--help')) {
  process.stdout.write(`${USAGE}\n`)
  process.exit(0)
}
const rounds = Number(option('--rounds') ?? 3)
const phaseMs = Number(option('--phase-ms') ?? 4000)
const wanted = (option('--attacks') ?? ATTACKS.map((attack) => attack.key).join(',')).split(',')
const chosen = ATTACKS.filter((attack) => wanted.includes(attack.key))
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(phaseMs) || phaseMs < 500 || chosen.length !== wanted.length) {
  process.stderr.write(`${USAGE}\n`)
  process.exit(2)
}
if (!existsSync('dist/apps/server/main.js')) {
  process.stderr.write('bench:attacks: dist/apps/server/main.js is missing: run npm run build (npm run bench:attacks does)\n')
  process.exit(1)
}

const plan = planPinning(allowedCores())
const pinning = plan.load === undefined || pinSelf(plan.load) ? plan.description : `${plan.description} (the harness itself could not be pinned)`

const startAttacker = (attack: Attack, port: number): ChildProcess => {
  const { command, args } = pinned(plan.load, process.execPath, ['--import', 'tsx', 'bench/attacks/attacker.ts', attack.key, String(port)])
  return spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] })
}

const stopAttacker = async (attacker: ChildProcess): Promise<void> => {
  if (attacker.exitCode !== null || attacker.signalCode !== null) return
  const exited = once(attacker, 'exit')
  attacker.kill('SIGTERM')
  await exited
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2
}

interface Row {
  readonly attack: Attack
  readonly alone: number
  readonly beside: number
  readonly ratios: ReadonlyArray<number>
  readonly failedBeside: number
}

let nextId = 1
const measure = async (attack: Attack): Promise<Row> => {
  const server = await startServer({
    label: `the service (${attack.key})`,
    nodeArgs: ['dist/apps/server/main.js'],
    env: { PLANT_STORE_TOKENS: TOKEN, ...attack.serviceEnv },
    stdoutPath: '/dev/null',
    cores: plan.server,
  })
  try {
    const port = Number(new URL(server.url).port)
    const ids = (): number => (nextId += 1_000_000)
    await legitimateRate(port, 1000, ids(), attack.legitimate)
    const alone: number[] = []
    const beside: number[] = []
    let failedBeside = 0
    for (let round = 1; round <= rounds; round += 1) {
      alone.push((await legitimateRate(port, phaseMs, ids(), attack.legitimate)).storedPerSecond)
      const attacker = startAttacker(attack, port)
      try {
        await sleep(1500)
        const rate = await legitimateRate(port, phaseMs, ids(), attack.legitimate)
        beside.push(rate.storedPerSecond)
        failedBeside += rate.failed
      } finally {
        await stopAttacker(attacker)
      }
      process.stderr.write(`bench:attacks: ${attack.key} round ${round}: ${alone.at(-1)?.toFixed(0)}/s alone, ${beside.at(-1)?.toFixed(0)}/s beside\n`)
      // The attack's connections are closed by its process's end; the service lets them go.
      await sleep(1500)
    }
    const ratios = beside.map((rate, i) => rate / (alone[i] ?? NaN))
    return { attack, alone: median(alone), beside: median(beside), ratios, failedBeside }
  } finally {
    await server.stop()
  }
}

const rows: Row[] = []
for (const attack of chosen) rows.push(await measure(attack))

const lines = [
  `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${rounds} rounds of ${phaseMs / 1000} s alone then ${phaseMs / 1000} s beside; ${pinning}.`,
  '',
  '| attack | what it does | legitimate POSTs/s alone | beside | ratio (median of rounds) | rounds | refused beside | goal >= 0.9 |',
  '|---|---|---:|---:|---:|---|---:|---|',
  ...rows.map(
    ({ attack, alone, beside, ratios, failedBeside }) =>
      `| ${attack.key} | ${attack.description}${attack.legitimate === 'gzip' ? ' (the legitimate client sends gzip)' : ''} | ${alone.toFixed(0)} | ${beside.toFixed(0)} | ${median(ratios).toFixed(2)} | ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')} | ${failedBeside} | ${median(ratios) >= GOAL ? 'met' : 'not met'} |`,
  ),
]
process.stdout.write(`${lines.join('\n')}\n`)
