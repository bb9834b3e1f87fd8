// Runs the MongoDB wire peer on its own, so the service can be tried against it:
//   npm run mongo-peer -- --port 27017
// then start the service with MONGODB_URI set to the printed connection string.
import { parseArgs } from 'node:util'
import { startMongoPeer } from './server.js'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'replica-set': { type: 'string', default: 'rs0' },
  },
})

const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number from 0 to 65535, not ${values.port}`)
  process.exit(1)
}

const peer = await startMongoPeer({ port, host: values.host, setName: values['replica-set'] })
console.log(peer.uri)

const stop = (): void => {
  peer.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
