import { isIPv6 } from 'node:net'

/**
 * Who a connection belongs to, as everything counted per client counts it: the connections it may
 * hold, the waiting connections that give way first at the cap, the turns its bodies take at a
 * decoder. `networks` are the networks it counts against, the narrowest first: an IPv4 address
 * (IPv4 mapped into IPv6 included) by itself; an IPv6 address's /64, inside its /56, inside its
 * /48. `key` is the widest of them: turns and waiting connections are counted there, so a /48
 * spread over many /64s is one client, never many.
 */
export interface Client {
  readonly key: string
  readonly networks: ReadonlyArray<string>
}

/** A network a client's connections count against, and the most connections it may hold at once. */
export interface NetworkShare {
  readonly network: string
  readonly bound: number
}

// Counted per IPv6 address, one host could be as many clients as it picks addresses; counted per
// /64 alone, a subscriber handed a /56 (256 of them) or a /48 could. Which of these one subscriber
// holds is not known from outside (RFC 6177 leaves it to the provider), so every level counts.
const clientOfAddress = (address: string | undefined): Client => {
  const networks = networksOf(address)
  return { key: networks.at(-1) ?? '', networks }
}

const known = new WeakMap<object, Client>()

/** The client of a connection, from its socket's remote address: computed once per socket. */
export const clientOf = (socket: { readonly remoteAddress?: string | undefined }): Client => {
  let client = known.get(socket)
  if (client === undefined) {
    client = clientOfAddress(socket.remoteAddress)
    known.set(socket, client)
  }
  return client
}

/**
 * The bound of each network of a client, for a share of `share` connections: each wider network
 * may hold twice what the one inside it may, since it may have more hosts behind it, but a site
 * with 256 /64s holds two shares, not 256.
 */
export const sharesOf = (client: Client, share: number): ReadonlyArray<NetworkShare> =>
  client.networks.map((network, level) => ({ network, bound: share * 2 ** level }))

const networksOf = (address: string | undefined): ReadonlyArray<string> => {
  if (address === undefined) return ['']
  if (!isIPv6(address)) return [address]
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped?.[1] !== undefined) return [mapped[1]]
  const groups = ipv6Groups(address)
  const prefix = (count: number): string => groups.slice(0, count).map((group) => group.toString(16)).join(':')
  const halfGroup = ((groups[3] ?? 0) & 0xff00).toString(16)
  return [`${prefix(4)}::/64`, `${prefix(3)}:${halfGroup}::/56`, `${prefix(3)}::/48`]
}

// The eight 16-bit groups of an IPv6 address, `::` expanded; a zone is dropped.
const ipv6Groups = (address: string): number[] => {
  const [head = '', tail] = (address.split('%')[0] ?? '').split('::')
  const groupsOf = (text: string): string[] => (text === '' ? [] : text.split(':'))
  const left = groupsOf(head)
  const right = tail === undefined ? [] : groupsOf(tail)
  // An embedded IPv4 tail (::ffff:1.2.3.4 in another prefix) counts as two groups.
  const last = right.at(-1) ?? left.at(-1) ?? ''
  const width = last.includes('.') ? 7 : 8
  const zeros = Array.from({ length: Math.max(0, width - left.length - right.length) }, () => '0')
  return [...left, ...zeros, ...right].map((group) => (group.includes('.') ? 0 : Number.parseInt(group, 16) || 0))
}
