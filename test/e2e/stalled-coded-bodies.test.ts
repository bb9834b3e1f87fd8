import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { connect, type Socket } from 'node:net'
import { promisify } from 'node:util'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { MAIN, useCurrentBuild } from '../support/current-build.js'
import { reportPending } from '../support/pending.js'
import { startServiceProcess } from '../support/service-process.js'

// Hundreds of clients start brotli bodies that declare the largest window (CF FF FF FF) and stall.
// A decoder per request would reserve its window for as long as each client stalls; the service
// reads coded bytes first and decodes one body at a time, so under an address-space limit it keeps
// answering everyone else, with no 5xx. Every client here shares one address, so the per-address
// cap is raised: this test is about memory, connection-slots.test.ts about fairness.

const TOKEN = 'stalled-bodies-token-0123456789'
const STALLED = 300
// Well under what 300 brotli windows at once would take (16 MiB each, 4.7 GiB), and over what
// Node reserves to start at all (Node 26 aborts at start under 1.5 GiB).
const ADDRESS_SPACE_BYTES = 2048 * 1024 * 1024

const stall = (port: number): Socket => {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => undefined)
  socket.write(
    `POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
      'Content-Encoding: br\r\nContent-Length: 60000\r\n\r\n',
  )
  socket.write(Buffer.from([0xcf, 0xff, 0xff, 0xff]))
  return socket
}

describe('stalled compressed bodies under an address-space limit', function () {
  this.timeout(60_000)
  useCurrentBuild()

  it(`keeps answering while ${STALLED} brotli bodies stall, and decodes gzip and brotli bodies exactly`, async function () {
    try {
      await promisify(execFile)('prlimit', ['--version'])
    } catch {
      reportPending('stalled compressed bodies under an address-space limit', 'prlimit (util-linux) is not installed here')
      this.skip()
    }
    const service = startServiceProcess(
      { PLANT_STORE_TOKENS: TOKEN, MAX_CONNECTIONS: '2000', MAX_CONNECTIONS_PER_ADDRESS: '2000', SHUTDOWN_DRAIN_MS: '0' },
      { argv: ['prlimit', `--as=${ADDRESS_SPACE_BYTES}`, process.execPath, MAIN], cwd: process.cwd() },
    )
    const sockets: Socket[] = []
    try {
      const url = await service.listening
      const port = Number(new URL(url).port)
      for (let i = 0; i < STALLED; i += 1) sockets.push(stall(port))
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const post = (body: Buffer, coding: string) =>
        fetch(`${url}/plants`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', 'Content-Encoding': coding },
          body,
        })
      for (let id = 1; id <= 20; id += 1) {
        const plant = Buffer.from(`{"id":${id},"name":"plant ${id}"}`)
        const response = await post(id % 2 === 0 ? brotliCompressSync(plant) : gzipSync(plant), id % 2 === 0 ? 'br' : 'gzip')
        expect(response.status, `plant ${id}`).to.equal(200)
        expect(await response.json()).to.deep.equal({ name: `plant ${id}` })
      }
      const bomb = await post(gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20)), 'gzip')
      expect(bomb.status, 'a gzip bomb: refused at the limit, never expanded past it').to.equal(413)
      const garbage = await post(Buffer.from([0xcf, 0xff, 0xff, 0xff]), 'br')
      expect(garbage.status, 'a brotli body that ends before it decodes').to.equal(400)
      expect(service.child.exitCode, 'the service is still running').to.equal(null)
      expect(service.stdout()).not.to.match(/"status":5\d\d/)
    } finally {
      for (const socket of sockets) socket.destroy()
      await service.stop('SIGTERM')
    }
  })
})
