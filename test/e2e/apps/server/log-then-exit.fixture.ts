// Run as a child process by logger.test.ts, logging through the service's stdout destination:
// - `burst N`: N lines, then an exit at once, the way the service exits after its drain;
// - `steady MS`: lines for MS milliseconds (its reader may leave meanwhile), then "still logging"
//   on stderr and exit 0;
// - `lone MS`: one line, then MS milliseconds of nothing before it exits;
// - `flood N`: N lines of about 4 KB at once (more than the reader's pipe holds), a moment later a last line,
//   then 15 s of nothing before it exits.
// Imported (as mocha does with every file of a folder it is given), it does nothing.
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { asLoggerPort, asyncStdout, makePino } from '../../../../apps/server/logger.js'

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, amount] = [process.argv[2], Number(process.argv[3])]
  const log = asLoggerPort(makePino('info', asyncStdout(16 * 1024 * 1024)))
  if (mode === 'flood') {
    // Lines of about 4 KB, more than the reader's pipe holds: the writes block while the reader
    // waits, and the last line, fewer bytes than the destination's batch, waits behind them.
    for (let index = 0; index < amount; index++) log.info('request', { index, padding: 'x'.repeat(3_900) })
    await sleep(1)
    log.info('last line')
    await sleep(15_000)
  } else if (mode === 'lone') {
    log.info('lone line')
    await sleep(amount)
  } else if (mode === 'burst') {
    for (let index = 0; index < amount; index++) log.info('request', { index, name: `Plante grimpante ${index} — été 🌱` })
  } else {
    const until = performance.now() + amount
    for (let index = 0; performance.now() < until; index++) {
      log.info('request', { index })
      if (index % 100 === 0) await sleep(1)
    }
    process.stderr.write('still logging\n')
  }
  process.exit(0)
}
