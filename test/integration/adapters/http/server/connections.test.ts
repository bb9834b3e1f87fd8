import { expect } from 'chai'
import fc from 'fast-check'
import { connect, type Socket } from 'node:net'
import { clientOf, sharesOf } from '../../../../../adapters/http/context/client-networks.js'
import { startTestApp, type TestApp } from '../../../../support/http-app.js'
import { healthzFrom } from '../../../../support/raw-http.js'

// One client address holding every connection slot with sockets it never writes to, reopened as
// the server closes them, must not lock others out: another address still gets its requests
// answered. Loopback gives two addresses: 127.0.0.1 (the hog) and 127.0.0.2 (everyone else).

const HOG = '127.0.0.1'
const OTHER = '127.0.0.2'

const hold = (port: number, count: number): { readonly stop: () => void; readonly held: () => number } => {
  const sockets = new Set<Socket>()
  let stopped = false
  const openOne = (): void => {
    if (stopped) return
    const socket = connect({ port, host: '127.0.0.1', localAddress: HOG })
    socket.on('error', () => undefined)
    sockets.add(socket)
    // As the attack did: about a hundred reopened a second, no token, no bytes.
    socket.on('close', () => {
      sockets.delete(socket)
      setTimeout(openOne, 10)
    })
  }
  for (let i = 0; i < count; i += 1) openOne()
  return {
    stop: () => {
      stopped = true
      for (const socket of sockets) socket.destroy()
    },
    held: () => sockets.size,
  }
}

describe('connection slots shared fairly between client addresses', function () {
  this.timeout(30_000)
  let app: TestApp | undefined

  afterEach(async function () {
    await app?.close()
  })

  it('answers >= 90 % of another address\'s requests while one address tries to hold every slot', async function () {
    app = await startTestApp({}, { maxConnections: 50, maxConnectionsPerAddress: 20 })
    const port = Number(new URL(app.url).port)
    const hog = hold(port, 200)
    try {
      await new Promise((resolve) => setTimeout(resolve, 300))
      const statuses: number[] = []
      for (let i = 0; i < 50; i += 1) statuses.push(await healthzFrom(port, OTHER))
      const answered = statuses.filter((status) => status === 200).length
      expect(answered / statuses.length, `answered ${answered} of ${statuses.length}`).to.be.at.least(0.9)
    } finally {
      hog.stop()
    }
  })

  it('lets several addresses fill every slot with idle connections, and still serves a newcomer', async function () {
    app = await startTestApp({}, { maxConnections: 40, maxConnectionsPerAddress: 10 })
    const port = Number(new URL(app.url).port)
    const idle: Socket[] = []
    for (const address of ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6']) {
      for (let i = 0; i < 10; i += 1) {
        const socket = connect({ port, host: '127.0.0.1', localAddress: address })
        socket.on('error', () => undefined)
        idle.push(socket)
      }
    }
    try {
      await new Promise((resolve) => setTimeout(resolve, 200))
      const statuses: number[] = []
      for (let i = 0; i < 10; i += 1) statuses.push(await healthzFrom(port, OTHER))
      expect(statuses).to.deep.equal(Array.from({ length: 10 }, () => 200))
    } finally {
      for (const socket of idle) socket.destroy()
    }
  })
})

describe('the networks a connection counts against', function () {
  const client = (address: string | undefined) => clientOf({ remoteAddress: address })
  const networks = (address: string | undefined): ReadonlyArray<string> => client(address).networks

  it('is the address alone for IPv4, and for IPv4 mapped into IPv6, with the share as its bound', function () {
    expect(sharesOf(client('203.0.113.7'), 10)).to.deep.equal([{ network: '203.0.113.7', bound: 10 }])
    expect(sharesOf(client('::ffff:203.0.113.7'), 10)).to.deep.equal([{ network: '203.0.113.7', bound: 10 }])
  })

  it("is an IPv6 address's /64 inside its /56 inside its /48, each bounded to twice the one inside it", function () {
    expect(sharesOf(client('2001:db8:0:1234::1'), 10)).to.deep.equal([
      { network: '2001:db8:0:1234::/64', bound: 10 },
      { network: '2001:db8:0:1200::/56', bound: 20 },
      { network: '2001:db8:0::/48', bound: 40 },
    ])
    expect(networks('::1')).to.deep.equal(['0:0:0:0::/64', '0:0:0:0::/56', '0:0:0::/48'])
  })

  // What is counted per client (turns at a decoder, waiting connections at the cap) is counted at
  // the widest network: a /48 spread over 400 /64s is one client, not 400.
  it('is keyed by the widest network: an IPv4 address, an IPv6 /48 whatever /64 inside it', function () {
    expect(client('203.0.113.7').key).to.equal('203.0.113.7')
    expect(client('::ffff:203.0.113.7').key).to.equal('203.0.113.7')
    const keys = new Set(Array.from({ length: 400 }, (_, i) => client(`2001:db8:7:${i.toString(16)}::1`).key))
    expect([...keys]).to.deep.equal(['2001:db8:7::/48'])
    expect(client('2001:db8:8::1').key).to.not.equal(client('2001:db8:7::1').key)
  })

  it('is the same however the address is written (zeros, case, `::`, a zone, an IPv4 tail)', function () {
    const expected = networks('2001:db8:0:1::1')
    for (const address of ['2001:db8:0:1:ffff:ffff:ffff:ffff', '2001:0db8:0000:0001:0:0:0:2', '2001:DB8:0:1::abcd', '2001:db8:0:1::1%eth0', '2001:db8:0:1::192.0.2.1']) {
      expect(networks(address), address).to.deep.equal(expected)
    }
  })

  // 256 /64s of one /56, or 65,536 of one /48: wherever a site's addresses fall, each of its
  // networks counts them all, so picking addresses from a wider block buys no more than twice.
  it('puts two addresses in the same network exactly when their first 64, 56 or 48 bits agree', function () {
    const group = fc.integer({ min: 0, max: 0xffff })
    const address = fc.array(group, { minLength: 8, maxLength: 8 })
    const written = (groups: ReadonlyArray<number>): string => groups.map((g) => g.toString(16).padStart(4, '0')).join(':')
    const bits = (groups: ReadonlyArray<number>, count: number): string =>
      groups.map((g) => g.toString(2).padStart(16, '0')).join('').slice(0, count)
    fc.assert(
      fc.property(address, address, fc.integer({ min: 0, max: 3 }), (a, b, shared) => {
        // Often in one network: b takes a's first 16, 32, 48 or 56 bits.
        const c = b.map((g, i) => (i < shared ? (a[i] as number) : i === shared && shared === 3 ? ((a[3] as number) & 0xff00) | (g & 0xff) : g))
        for (const other of [b, c]) {
          const [mine, theirs] = [networks(written(a)), networks(written(other))]
          for (const [level, prefix] of [[0, 64], [1, 56], [2, 48]] as const) {
            expect(mine[level] === theirs[level], `/${prefix} of ${written(a)} and ${written(other)}`).to.equal(bits(a, prefix) === bits(other, prefix))
          }
        }
      }),
    )
  })
})
