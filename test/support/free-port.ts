import { once } from 'node:events'
import { createServer } from 'node:net'

/**
 * A loopback port nothing listens on at the time of asking: for a process the test starts to
 * take, or as storage that cannot be reached.
 */
export const freePort = async (): Promise<number> => {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}
