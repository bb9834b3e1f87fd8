import { expect } from 'chai'
import { Agent, request } from 'node:http'
import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { gzipSync } from 'node:zlib'
import { startTestApp, TOKEN, type TestApp } from '../../../../support/http-app.js'

// A client's compressed bodies wait behind its own: a legitimate gzip client keeps most of its
// rate beside many connections of another client that send bodies decoding to the limit. The
// two rates are measured in the same test, the rate alone before and after the attack, so the
// machine's speed cancels, and a load that comes or goes during the test is on both sides.

const BODY_LIMIT = 1024 * 1024
const ATTACKING_CONNECTIONS = 20
const PHASE_MS = 1_500
// The decoder alternates between the two clients, but the attack's steps and answers still take
// most of the event loop this test shares with both clients; waiting behind every connection's
// body, the legitimate client kept well under a hundredth of its rate.
const MIN_RATIO = 0.15

// Decodes to the whole limit and is refused (400) as soon as its first byte is parsed.
const attackBody = gzipSync(Buffer.alloc(BODY_LIMIT, 'x'))
const attackRequest = Buffer.concat([
  Buffer.from(
    `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${attackBody.length}\r\n\r\n`,
  ),
  attackBody,
])

// One connection of the attacking client (127.0.0.2), sending its next body as each answer comes.
const attack = (port: number): Socket => {
  const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' })
  socket.on('error', () => {})
  socket.on('connect', () => {
    socket.write(attackRequest)
    socket.write(attackRequest)
  })
  socket.on('data', (chunk: Buffer) => {
    const answers = chunk.toString('latin1').match(/HTTP\/1\.1 /g)?.length ?? 0
    for (let i = 0; i < answers; i += 1) socket.write(attackRequest)
  })
  return socket
}

// Sequential gzip POSTs of small plants from 127.0.0.1 for `ms`: how many were answered 200.
const legitimateRate = async (port: number, ms: number, firstId: number): Promise<number> => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const until = performance.now() + ms
  let answered = 0
  for (let id = firstId; performance.now() < until; id += 1) {
    const body = gzipSync(`{"id":${id},"name":"Fern"}`)
    const status = await new Promise<number>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/plants',
          method: 'POST',
          agent,
          headers: {
            Authorization: `Bearer ${TOKEN}`,
            'Content-Type': 'application/json',
            'Content-Encoding': 'gzip',
            'Content-Length': body.length,
          },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('error', () => resolve(0))
      req.end(body)
    })
    if (status === 200) answered += 1
  }
  agent.destroy()
  return (answered * 1000) / ms
}

describe('compressed bodies of many connections of one client', function () {
  this.timeout(30_000)
  let app: TestApp | undefined
  const attackers: Socket[] = []
  after(async function () {
    for (const socket of attackers) socket.destroy()
    await app?.close()
  })

  it('leave another client a share of its rate of gzip POSTs, not what one in twenty connections gets', async function () {
    app = await startTestApp({ bodyLimitBytes: BODY_LIMIT })
    const port = Number(new URL(app.url).port)
    const before = await legitimateRate(port, PHASE_MS, 1)
    for (let i = 0; i < ATTACKING_CONNECTIONS; i += 1) attackers.push(attack(port))
    await sleep(200)
    const beside = await legitimateRate(port, PHASE_MS, 1_000_000)
    for (const socket of attackers.splice(0)) socket.destroy()
    await sleep(200)
    const after = await legitimateRate(port, PHASE_MS, 2_000_000)
    const alone = (before + after) / 2
    expect(alone, 'POSTs/s alone').to.be.above(0)
    const ratio = beside / alone
    expect(ratio, `rate beside the attack (${beside.toFixed(0)}/s) over the rate alone (${before.toFixed(0)}/s before, ${after.toFixed(0)}/s after)`).to.be.at.least(MIN_RATIO)
  })
})
