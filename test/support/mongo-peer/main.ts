// Runs the MongoDB wire peer on its own, so the service can be tried against it:
//   npm run mongo-peer -- --port 27017
// then start the service with MONGODB_URI set to the printed connection string. With --flap, it
// goes down and comes back as issue 8 observed (down 1 s, up 1.5 s, eight times), and again
// every time it has been up for 10 s, until it is stopped.
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { flap, OBSERVED_FLAPPING } from './flapping.js'
import { startMongoPeer } from './server.js'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'replica-set': { type: 'string', default: 'rs0' },
    flap: { type: 'boolean', default: false },
  },
})

const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number from 0 to 65535, not ${values.port}`)
  process.exit(1)
}

const peer = await startMongoPeer({ port, host: values.host, setName: values['replica-set'] })
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
