// Run as a child process by logger.test.ts: logs through the service's stdout destination, then
// exits at once, the way the service exits after its drain. Imported (as mocha does with every
// file of a folder it is given), it does nothing.
import { fileURLToPath } from 'node:url'
import { asLoggerPort, makePino } from '../../../apps/server/logger.js'

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const count = Number(process.argv[2])
  const log = asLoggerPort(makePino('info'))
  for (let index = 0; index < count; index++) log.info('request', { index, name: `Plante grimpante ${index} — été 🌱` })
  process.exit(0)
}
