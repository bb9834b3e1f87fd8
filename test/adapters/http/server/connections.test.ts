import { expect } from 'chai'
import { connect, type Socket } from 'node:net'
import { clientOf } from '../../../../adapters/http/server/connections.js'
import { startTestApp, type TestApp } from '../../../support/http-app.js'
import { healthzFrom } from '../../../support/raw-http.js'

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

describe('the client a connection counts against', function () {
  it('is the address for IPv4, and for IPv4 mapped into IPv6', function () {
    expect(clientOf('203.0.113.7')).to.equal('203.0.113.7')
    expect(clientOf('::ffff:203.0.113.7')).to.equal('203.0.113.7')
  })

  it('is the /64 network for IPv6, however the address is written', function () {
    const network = clientOf('2001:db8:0:1::1')
    for (const address of ['2001:db8:0:1:ffff:ffff:ffff:ffff', '2001:0db8:0000:0001:0:0:0:2', '2001:DB8:0:1::abcd', 'fe80::1%eth0'.replace('fe80', '2001:db8:0:1')]) {
      expect(clientOf(address), address).to.equal(network)
    }
    expect(clientOf('2001:db8:0:2::1')).not.to.equal(network)
    expect(clientOf('::1')).to.equal('0:0:0:0::/64')
    expect(clientOf('2001:db8::')).to.equal('2001:db8:0:0::/64')
  })
})
