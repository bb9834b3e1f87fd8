// `npm run bench:attacks` (also part of `npm run bench`): legitimate clients' rates beside each
// attack a client can keep up (bench/attacks/attacks.ts), over their rates alone, measured in the
// same run against the service as `npm start` runs it (built, in memory, request log on). The
// service runs on a core of its own; the harness, its legitimate clients and the attacker's
// process on another. Each round is alone, then beside the attack, so a drift of the machine
// shows as rounds that disagree. The first attack is a reference: a flood of the cheapest request,
// which any service shares its core with. The report, a Markdown table for docs/limits.md, goes
// to stdout; nothing here asserts a rate.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { ATTACKS, TOKEN, type Attack } from './attacks/attacks.js'
import { legitimateRate, PACED_PATIENCE_MS, pacedRate } from './attacks/legitimate.js'
import { allowedCores, pinned, pinSelf, planPinning } from './http/pinning.js'
import { startServer } from './http/processes.js'

const USAGE = `usage: npm run bench:attacks -- [--rounds N] [--phase-ms MS] [--attacks ${ATTACKS.map((attack) => attack.key).join(',')}]`
const GOAL = 0.9
// A pace well under what the service answers on one core, as many clients each sending now and then.
const PACE_PER_SECOND = 100

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

const startAttacker = (attack: Attack, port: number, metricsPort: number): ChildProcess => {
  const { command, args } = pinned(plan.load, process.execPath, ['--import', 'tsx', 'bench/attacks/attacker.ts', attack.key, String(port), String(metricsPort)])
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

interface Rates {
  readonly alone: number
  readonly beside: number
  readonly ratios: ReadonlyArray<number>
  readonly failedBeside: number
  readonly failedAlone: number
}

interface Row {
  readonly attack: Attack
  /** One kept-alive connection, each POST sent as the last is answered. */
  readonly closedLoop: Rates
  /** A POST every 1/PACE_PER_SECOND s, each on a fresh connection. */
  readonly paced: Rates
}

type Phase = { readonly storedPerSecond: number; readonly failed: number }

const rates = (aloneRates: ReadonlyArray<Phase>, beside: ReadonlyArray<Phase>): Rates => {
  const alone = aloneRates.map((rate) => rate.storedPerSecond)
  return {
    alone: median(alone),
    beside: median(beside.map((rate) => rate.storedPerSecond)),
    ratios: beside.map((rate, i) => rate.storedPerSecond / (alone[i] ?? NaN)),
    failedAlone: aloneRates.reduce((sum, rate) => sum + rate.failed, 0),
    failedBeside: beside.reduce((sum, rate) => sum + rate.failed, 0),
  }
}

// A loopback port free now, for the metrics listener of a service whose scrapes are measured.
const freePort = async (): Promise<number> => {
  const probe = createServer().listen(0, '127.0.0.1')
  await once(probe, 'listening')
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

let nextId = 1
const ids = (): number => (nextId += 1_000_000)

const measure = async (attack: Attack): Promise<Row> => {
  const metricsPort = await freePort()
  const server = await startServer({
    label: `the service (${attack.key})`,
    nodeArgs: ['dist/apps/server/main.js'],
    // The legitimate clients store a plant per request: the in-memory bound (100,000 by default) is
    // raised so the rounds measure storing, not a full store's 507.
    env: { PLANT_STORE_TOKENS: TOKEN, IN_MEMORY_MAX_PLANTS: '20000000', METRICS_PORT: String(metricsPort), ...attack.serviceEnv },
    stdoutPath: '/dev/null',
    cores: plan.server,
  })
  try {
    const publicPort = Number(new URL(server.url).port)
    // Scrapes go to the metrics listener; plants to the public one.
    const port = attack.legitimate === 'scrape' ? metricsPort : publicPort
    await legitimateRate(port, 1000, ids(), attack.legitimate)
    const closedAlone: Phase[] = []
    const closedBeside: Phase[] = []
    const pacedAlone: Phase[] = []
    const pacedBeside: Phase[] = []
    for (let round = 1; round <= rounds; round += 1) {
      closedAlone.push(await legitimateRate(port, phaseMs, ids(), attack.legitimate))
      pacedAlone.push(await pacedRate(port, phaseMs, PACE_PER_SECOND, ids(), attack.legitimate))
      const attacker = startAttacker(attack, publicPort, metricsPort)
      try {
        await sleep(1500)
        closedBeside.push(await legitimateRate(port, phaseMs, ids(), attack.legitimate))
        pacedBeside.push(await pacedRate(port, phaseMs, PACE_PER_SECOND, ids(), attack.legitimate))
      } finally {
        await stopAttacker(attacker)
      }
      process.stderr.write(
        `bench:attacks: ${attack.key} round ${round}: one connection ${closedAlone.at(-1)?.storedPerSecond.toFixed(0)}/s alone, ` +
          `${closedBeside.at(-1)?.storedPerSecond.toFixed(0)}/s beside; paced ${pacedAlone.at(-1)?.storedPerSecond.toFixed(0)}/s alone, ` +
          `${pacedBeside.at(-1)?.storedPerSecond.toFixed(0)}/s beside\n`,
      )
      // The attack's connections are closed by its process's end; the service lets them go.
      await sleep(1500)
    }
    return { attack, closedLoop: rates(closedAlone, closedBeside), paced: rates(pacedAlone, pacedBeside) }
  } finally {
    await server.stop()
  }
}

const cells = ({ alone, beside, ratios, failedAlone, failedBeside }: Rates): string =>
  `${alone.toFixed(0)} | ${beside.toFixed(0)} | **${median(ratios).toFixed(2)}** (${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}) | ${failedAlone} / ${failedBeside}`

const LEGITIMATE_NOTE = { json: '', gzip: ' (the legitimate clients send gzip)', scrape: ' (the legitimate clients scrape /metrics)' } as const

const rows: Row[] = []
for (const attack of chosen) rows.push(await measure(attack))

const lines = [
  `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${rounds} rounds of ${phaseMs / 1000} s alone then ${phaseMs / 1000} s beside; ${pinning}. ` +
    `"One connection": POSTs one after the other on one kept-alive connection; "paced": ${PACE_PER_SECOND} POSTs a second, each on a fresh connection, ` +
    `stored within ${PACED_PATIENCE_MS / 1000} s. Rates are plants stored a second (scrapes answered a second, on the metrics listener, where the clients scrape); ` +
    `a ratio is the rate beside over the rate alone, the median of the rounds (each round's in brackets).`,
  '',
  '| attack | what it does | one connection: alone | beside | ratio | not stored alone / beside | paced: alone | beside | ratio | not stored alone / beside | paced >= 0.9 |',
  '|---|---|---:|---:|---|---:|---:|---:|---|---:|---|',
  ...rows.map(
    ({ attack, closedLoop, paced }) =>
      `| ${attack.key} | ${attack.description}${LEGITIMATE_NOTE[attack.legitimate]} | ${cells(closedLoop)} | ${cells(paced)} | ${median(paced.ratios) >= GOAL ? 'met' : 'not met'} |`,
  ),
]
process.stdout.write(`${lines.join('\n')}\n`)
