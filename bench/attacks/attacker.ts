// One attack of ./attacks.ts in a process of its own, so its sockets cost the harness nothing:
// `node --import tsx bench/attacks/attacker.ts <key> <port> [<metrics port>]`, stopped by a signal.
import { ATTACKS } from './attacks.js'

const [key, port, metricsPort = '0'] = process.argv.slice(2)
const attack = ATTACKS.find((candidate) => candidate.key === key)
if (attack === undefined || !/^\d+$/.test(port ?? '') || !/^\d+$/.test(metricsPort)) {
  process.stderr.write(`usage: attacker.ts <${ATTACKS.map((known) => known.key).join('|')}> <port> [<metrics port>]\n`)
  process.exit(2)
}
attack.start(Number(port), Number(metricsPort))
process.on('SIGTERM', () => process.exit(0))
