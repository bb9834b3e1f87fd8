import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { JWK } from 'jose'

/**
 * How the fake identity provider answers a request for its key set: its keys; a 500; nothing;
 * 200 with a body that is not a key set (a maintenance page, a misconfigured proxy); or 200 with
 * a key set that never ends (keys written for as long as the client reads).
 */
export type JwksBehaviour = 'serve' | 'fail' | 'hang' | 'notKeySet' | 'endless'

/** A JWKS endpoint on loopback whose keys can be rotated and which can be stopped and restarted. */
export interface JwksServer {
  readonly url: URL
  /** Replaces the published keys (a key rotation at the provider). */
  readonly publish: (keys: ReadonlyArray<JWK>) => void
  readonly behave: (behaviour: JwksBehaviour) => void
  /** How many times the key set was asked for: the load the service puts on the provider. */
  readonly requestCount: () => number
  /** How many bytes of endless key sets the clients took before they stopped reading. */
  readonly endlessBytesWritten: () => number
  /** Closes the port, so a fetch is refused outright. */
  readonly stop: () => Promise<void>
  /** Listens again on the same port. */
  readonly restart: () => Promise<void>
}

export const startJwksServer = async (keys: ReadonlyArray<JWK>): Promise<JwksServer> => {
  let published = keys
  let behaviour: JwksBehaviour = 'serve'
  let requests = 0
  let written = 0
  const hanging = new Set<ServerResponse>()
  const server = createServer((_request, response) => {
    requests += 1
    switch (behaviour) {
      case 'serve':
        response.writeHead(200, { 'content-type': 'application/jwk-set+json' })
        response.end(JSON.stringify({ keys: published }))
        return
      case 'fail':
        response.writeHead(500, { 'content-type': 'text/plain' })
        response.end('identity provider is having a bad day')
        return
      case 'hang':
        hanging.add(response)
        return
      case 'notKeySet':
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end('{"status":"down for maintenance"}')
        return
      case 'endless': {
        hanging.add(response)
        response.writeHead(200, { 'content-type': 'application/jwk-set+json' })
        response.write('{"keys":[')
        const filler = `${JSON.stringify({ kty: 'oct', kid: 'filler', k: 'A'.repeat(65_000) })},`
        const more = (): void => {
          while (!response.destroyed) {
            written += filler.length
            if (!response.write(filler)) return
          }
        }
        response.on('drain', more)
        response.on('close', () => hanging.delete(response))
        more()
        return
      }
    }
  })
  const listen = (port: number): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      })
    })
  await listen(0)
  const { port } = server.address() as AddressInfo
  return {
    url: new URL(`http://127.0.0.1:${port}/.well-known/jwks.json`),
    publish: (next) => {
      published = next
    },
    behave: (next) => {
      behaviour = next
    },
    requestCount: () => requests,
    endlessBytesWritten: () => written,
    stop: () =>
      new Promise((resolve) => {
        if (!server.listening) return resolve()
        hanging.forEach((response) => response.destroy())
        hanging.clear()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
    restart: () => listen(port),
  }
}
