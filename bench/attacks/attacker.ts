// One attack of ./attacks.ts in a process of its own, so its sockets cost the harness nothing:
// `node --import tsx bench/attacks/attacker.ts <key> <port>`, stopped by a signal.
import { ATTACKS } from './attacks.js'

const [key, port] = process.argv.slice(2)
const attack = ATTACKS.find((candidate) => candidate.key === key)
if (attack === undefined || !/^\d+$/.test(port ?? '')) {
  process.stderr.write(`usage: attacker.ts <${ATTACKS.map((known) => known.key).join('|')}> <port>\n`)
  process.exit(2)
}
attack.start(Number(port))
process.on('SIGTERM', () => process.exit(0))
