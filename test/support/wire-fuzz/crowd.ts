// Many connections from loopback addresses (127.1.x.y, each a client of its own to the service's
// shares), held open while a scenario plays: what a botnet, or one site's clients, do to a
// service's connection slots: a few addresses at their share or past it, or many addresses with
// one or two connections each, as many ordinary clients look (slowloris-style slot holding). Each holds its slot in one way: saying nothing, headers half
// sent, a body announced that never comes or comes a byte at a time, or idle after an answer;
// with a token or without, since a request the service refuses unread holds nothing.
import fc from 'fast-check'
import { setTimeout as sleep } from 'node:timers/promises'
import type { TokenKind } from './fuzz-credentials.js'
import type { RenderContext } from './requests.js'
import { openWire, type Endpoint, type WireConnection } from './wire-connection.js'

/** How each connection of a crowd holds its slot. */
export type Holding = 'silent' | 'half-headers' | 'body-never-comes' | 'body-trickles' | 'idle'

export interface Crowd {
  /** Addresses 127.1.0.1 onwards, one client each. */
  readonly addresses: number
  readonly perAddress: number
  readonly holding: Holding
  readonly token: TokenKind
}

// The crowd's addresses, in 127.1.0.0/16: the fuzzer's own clients are in 127.0.0.0/24.
const crowdAddress = (index: number): string => `127.1.${Math.floor(index / 250)}.${1 + (index % 250)}`

/** The most addresses of a crowd of few addresses holding many connections each. */
export const MAX_CROWD_ADDRESSES = 10

/** The address of a legitimate client, which no crowd uses. */
export const LEGITIMATE_ADDRESS = '127.0.0.250'

/**
 * Crowds of up to MAX_CROWD_ADDRESSES addresses, each with up to a few connections past its
 * share, or of many addresses (from half of `cap` to past it) with one or two connections each:
 * with `share` the service's connections per address and `cap` its connections in all, enough of
 * either fill every slot.
 */
export const crowd = (share: number, cap: number): fc.Arbitrary<Crowd> =>
  fc
    .tuple(
      fc.oneof(
        fc.record({ addresses: fc.integer({ min: 1, max: MAX_CROWD_ADDRESSES }), perAddress: fc.oneof(fc.integer({ min: 1, max: share + 5 }), fc.constant(share)) }),
        fc.record({ addresses: fc.integer({ min: Math.ceil(cap / 2), max: cap + 20 }), perAddress: fc.integer({ min: 1, max: 2 }) }),
      ),
      fc.constantFrom<Holding>('silent', 'half-headers', 'body-never-comes', 'body-trickles', 'idle'),
      fc.constantFrom<TokenKind>('static', 'jwt', 'none', 'jwt-unknown-key'),
    )
    .map(([{ addresses, perAddress }, holding, token]) => ({ addresses, perAddress, holding, token }))

// The body announced is this long; a trickle sends a byte of it at a time.
const ANNOUNCED_BYTES = 64
// A trickle's pace: a byte this often, far under any progress a server should wait for.
const TRICKLE_EVERY_MS = 400

const opening = (holding: Holding, token: string | undefined): string => {
  const authorization = token === undefined ? '' : `Authorization: Bearer ${token}\r\n`
  switch (holding) {
    case 'silent':
      return ''
    case 'half-headers':
      return `POST /plants HTTP/1.1\r\nHost: fuzz\r\n${authorization}`
    case 'body-never-comes':
    case 'body-trickles':
      return `POST /plants HTTP/1.1\r\nHost: fuzz\r\n${authorization}Content-Type: application/json\r\nContent-Length: ${ANNOUNCED_BYTES}\r\n\r\n`
    case 'idle':
      return 'GET /healthz HTTP/1.1\r\nHost: fuzz\r\n\r\n'
  }
}

export interface HeldCrowd {
  readonly connections: ReadonlyArray<{ readonly address: string; readonly connection: WireConnection }>
  /** Stops trickling; the connections stay as they are until reset. */
  readonly quiet: () => void
}

/** Opens the crowd's connections, writes what each holds its slot with, and keeps trickling. */
export const openCrowd = async (endpoint: Endpoint, { addresses, perAddress, holding, token }: Crowd, context: RenderContext): Promise<HeldCrowd> => {
  const bytes = opening(holding, context.tokenOf(token))
  const connections = await Promise.all(
    Array.from({ length: addresses * perAddress }, async (_, index) => {
      const address = crowdAddress(index % addresses)
      const connection = await openWire(endpoint, address)
      if (bytes !== '') connection.write(bytes)
      return { address, connection }
    }),
  )
  let sent = 0
  const trickle =
    holding === 'body-trickles'
      ? setInterval(() => {
          if (sent >= ANNOUNCED_BYTES) return
          sent += 1
          for (const { connection } of connections) connection.write(sent === 1 ? '{' : ' ')
        }, TRICKLE_EVERY_MS)
      : undefined
  // The service has read what each connection sent, and holds its slot as the crowd means it to.
  await sleep(200)
  return { connections, quiet: () => clearInterval(trickle) }
}
