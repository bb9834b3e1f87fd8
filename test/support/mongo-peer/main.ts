// Runs the MongoDB wire peer on its own, so the service can be tried against it:
//   npm run mongo-peer -- --port 27017
// then start the service with MONGODB_URI set to the printed connection string. With --flap, it
// goes down and comes back as a flapping network does (down 1 s, up 1.5 s, eight times), and again
// every time it has been up for 10 s, until it is stopped.
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { flap, OBSERVED_FLAPPING } from './flapping.js'
import { startMongoPeer } from './server.js'

const USAGE = `npm run mongo-peer -- [--port N] [--host ADDRESS] [--replica-set NAME] [--polling] [--flap]
  A MongoDB wire-protocol peer in memory, for trying the service without a mongod.
  --port N            port to listen on; 0, the default, picks a free one
  --host ADDRESS      address to listen on (default 127.0.0.1)
  --replica-set NAME  the replica set it says it is the primary of (default rs0)
  --polling           no topologyVersion in hello: clients poll it rather than stream it
  --flap              go down and come back as a flapping network does, again after every 10 s up
  It prints the connection string to give the service as MONGODB_URI.`

const parsed = (() => {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        host: { type: 'string', default: '127.0.0.1' },
        'replica-set': { type: 'string', default: 'rs0' },
        polling: { type: 'boolean', default: false },
        flap: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
    process.exit(1)
  }
})()
const { values } = parsed
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}

const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number from 0 to 65535, not ${values.port}`)
  process.exit(1)
}

const peer = await startMongoPeer({
  port,
  host: values.host,
  setName: values['replica-set'],
  monitoring: values.polling ? 'polling' : 'streaming',
})
console.log(peer.uri)

const stopping = new AbortController()
if (values.flap) {
  void (async () => {
    while (!stopping.signal.aborted) {
      console.log('flapping')
      await flap(peer, OBSERVED_FLAPPING, stopping.signal)
      console.log('up')
      await sleep(10_000, undefined, { signal: stopping.signal }).catch(() => {})
    }
  })()
}

const stop = (): void => {
  stopping.abort()
  peer.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
