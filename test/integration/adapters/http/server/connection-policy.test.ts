import { expect } from 'chai'
import fc from 'fast-check'
import { request } from 'node:http'
import { startTestApp, TOKEN, type TestApp } from '../../../../support/http-app.js'
import { finalResponses, openRaw, settlesWithin, waitForText, type RawConnection } from '../../../../support/raw-http.js'
import { propertyRuns } from '../../../../support/property-runs.js'
import { holdSlotsAside, postHead, type Family, type Hold } from '../../../../support/slot-holders.js'
import { virtualClock } from '../../../../support/virtual-clock.js'

// Connections that hold a slot without finishing a request (slowloris-style slot holding), from
// many client addresses, with a token and without: at the cap a connection waiting on its client
// gives way, so every new connection of a legitimate client is served; over-share clients are
// answered rather than reset; a body that stops gives its slot back long before the request
// timeout. The server's own timers run on a virtual clock: nothing the holders hold times out
// while a test runs, whatever the machine's load, and a test moves time on where it means to.
// 127.0.0.0/8 is all loopback on Linux: 127.1.x.y are the holders, 127.0.0.1 the legitimate client.

const LEGITIMATE = '127.0.0.1'
const holderAddress = (index: number): string => `127.1.${Math.floor(index / 250)}.${1 + (index % 250)}`

let nextId = 1

// One request on a connection of its own from `localAddress`: its status, or 0 for none within
// `patienceMs` (a hang detector: the rule admits it at once, or never).
const exchange = (port: number, localAddress: string, method: 'GET' | 'POST', patienceMs = 10_000): Promise<number> =>
  new Promise((resolve) => {
    const body = method === 'POST' ? JSON.stringify({ id: nextId++, name: 'Monstera' }) : undefined
    const headers = body === undefined ? {} : { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` }
    const path = method === 'POST' ? '/plants' : '/healthz'
    const req = request({ host: '127.0.0.1', port, method, path, headers, localAddress, agent: false, timeout: patienceMs }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(0))
    req.end(body)
  })

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

const familyArbitrary: fc.Arbitrary<Family> = fc.record({
  hold: fc.constantFrom<Hold>('silent', 'half-headers', 'idle', 'polling', 'body-never', 'body-trickle', 'body-segments'),
  withToken: fc.boolean(),
})

describe('at the connection cap, a connection waiting on its client gives way', function () {
  this.timeout(60_000) // a hang detector: a population, then each newcomer's exchange
  let app: TestApp | undefined
  afterEach(async function () {
    await app?.close()
    app = undefined
  })

  const MAX = 40
  const SHARE = 6
  const NEWCOMERS = 6

  // Every slot held by connections waiting on their clients, many addresses with one or two each
  // or a few at their share and past it; the legitimate client may hold one idle kept-alive
  // connection of its own. Each of its new connections must be served: the rule admits a newcomer
  // whenever some connection waits, and the one it closes is never the newcomer.
  it('serves every new connection of a client beside populations of waiting connections that fill every slot', async function () {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          // Many addresses, one or two connections each: 1,000 ordinary clients look the same.
          fc.record({ addresses: fc.constant(MAX), perAddress: fc.integer({ min: 1, max: 2 }), families: fc.array(familyArbitrary, { minLength: 1, maxLength: 3 }) }),
          // A few addresses at their share or past it.
          fc.record({ addresses: fc.integer({ min: Math.ceil(MAX / SHARE), max: Math.ceil(MAX / SHARE) + 2 }), perAddress: fc.integer({ min: SHARE, max: SHARE + 3 }), families: fc.array(familyArbitrary, { minLength: 1, maxLength: 3 }) }),
        ),
        fc.boolean(),
        async ({ addresses, perAddress, families }, keptAlive) => {
          const time = virtualClock()
          app = await startTestApp({}, { maxConnections: MAX, maxConnectionsPerAddress: SHARE }, time.clock)
          const port = Number(new URL(app.url).port)
          const own = keptAlive ? await openRaw(app.url, LEGITIMATE) : undefined
          own?.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
          if (own !== undefined) await waitForText(own, /"alive"/, 5_000)
          time.advance(1_000)
          const stop = await holdSlotsAside({
            port,
            token: TOKEN,
            groups: Array.from({ length: addresses }, (_, i) => ({ localAddress: holderAddress(i), count: perAddress, family: families[i % families.length] as Family })),
          })
          try {
            // Long enough for the holders to take every slot; on virtual time none of them expires.
            await pause(500)
            const statuses: number[] = []
            for (let i = 0; i < NEWCOMERS; i += 1) {
              time.advance(100)
              statuses.push(await exchange(port, LEGITIMATE, i % 2 === 0 ? 'POST' : 'GET'))
            }
            expect(statuses, 'the legitimate client\'s new connections, POST /plants and GET /healthz in turn').to.deep.equal(Array.from({ length: NEWCOMERS }, () => 200))
          } finally {
            own?.socket.destroy()
            await stop()
            await app.close()
            app = undefined
          }
        },
      ),
      {
        numRuns: propertyRuns(4),
        examples: [
          // The families that locked the legitimate client out: one idle or polling connection from
          // each of many addresses, bodies trickled just above the progress rule, half-sent heads.
          [{ addresses: MAX, perAddress: 1, families: [{ hold: 'polling', withToken: false }] }, true],
          [{ addresses: MAX, perAddress: 1, families: [{ hold: 'body-segments', withToken: true }] }, false],
          [{ addresses: MAX, perAddress: 1, families: [{ hold: 'half-headers', withToken: false }] }, false],
          // The family every slot-holder used to win with: bodies that never come, with a token.
          [{ addresses: Math.ceil(MAX / SHARE) + 1, perAddress: SHARE, families: [{ hold: 'body-never', withToken: true }] }, false],
        ],
      },
    )
  })

  it('answers a client over its share 503 with Retry-After on the new connection, and keeps its kept-alive ones', async function () {
    const opened: RawConnection[] = []
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            share: fc.integer({ min: 1, max: 4 }),
            extra: fc.integer({ min: 1, max: 6 }),
            withToken: fc.boolean(),
            address: fc.integer({ min: 20, max: 250 }),
          }),
          async ({ share, extra, withToken, address }) => {
            await app?.close()
            app = await startTestApp({}, { maxConnections: 100, maxConnectionsPerAddress: share })
            const { url } = app
            const from = `127.0.0.${address}`
            const keptAlive: RawConnection[] = []
            for (let i = 0; i < share; i += 1) {
              const connection = await openRaw(url, from)
              opened.push(connection)
              connection.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
              await waitForText(connection, /"alive"/, 2_000)
              keptAlive.push(connection)
            }
            const body = JSON.stringify({ id: nextId++, name: 'Ficus' })
            const over = await Promise.all(
              Array.from({ length: extra }, async () => {
                const connection = await openRaw(url, from)
                opened.push(connection)
                connection.write(`${postHead(withToken ? TOKEN : undefined, body.length)}${body}`)
                await settlesWithin(connection.closed, 3_000)
                return connection
              }),
            )
            for (const connection of over) {
              const answers = finalResponses(connection.received())
              expect(answers.map((answer) => answer.status), 'the answers on a connection over the share').to.deep.equal([503])
              expect(answers[0]?.headers['retry-after']).to.equal('1')
              expect(answers[0]?.headers['connection']).to.equal('close')
            }
            for (const connection of keptAlive) {
              const plant = JSON.stringify({ id: nextId++, name: 'Ficus' })
              connection.write(`${postHead(TOKEN, plant.length)}${plant}`)
              await waitForText(connection, /"name":"Ficus"/, 2_000)
              expect(connection.socket.destroyed, 'a kept-alive connection of the client').to.equal(false)
            }
            for (const connection of opened.splice(0)) connection.socket.destroy()
          },
        ),
        { numRuns: propertyRuns(4) },
      )
    } finally {
      for (const connection of opened) connection.socket.destroy()
    }
  })

  // TCP's retransmission timer starts at 1 s and doubles: a segment lost three times arrives 7 s
  // late, ordinary on a mobile link. A body may stall that long and be served; one that stops for
  // 10 s, or trickles below a segment in 10 s, is answered 408, long before the 30 s request timeout.
  it('serves a body that stalls 7 s, and answers 408 to one that stops or trickles for 10 s, on virtual time', async function () {
    const time = virtualClock()
    app = await startTestApp({}, { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 }, time.clock)
    const plant = (name: string, size: number): string => {
      const json = JSON.stringify({ id: nextId++, name })
      return `${' '.repeat(size - json.length)}${json}`
    }
    const never = await openRaw(app.url)
    never.write(`${postHead(TOKEN, 10_000)}{"id":`)
    const trickle = await openRaw(app.url)
    trickle.write(`${postHead(TOKEN, 10_000)}{"id":`)
    // 1,100 bytes every 700 ms: slow, but never stopped.
    const steady = await openRaw(app.url)
    const steadyBody = plant('Aloe', 9_000)
    steady.write(postHead(TOKEN, steadyBody.length))
    // A 60 KB upload: half of it, a stall of 7 s, then the rest.
    const stalled = await openRaw(app.url)
    const stalledBody = plant('Ficus', 60_000)
    stalled.write(`${postHead(TOKEN, stalledBody.length)}${stalledBody.slice(0, 30_000)}`)
    const STEP_MS = 100
    for (let at = 0; at < 9_900; at += STEP_MS) {
      trickle.write(' ')
      if (at % 700 === 0) steady.write(steadyBody.slice((at / 700) * 1_100, (at / 700 + 1) * 1_100))
      if (at === 7_000) stalled.write(stalledBody.slice(30_000))
      // Real time for the bytes to reach the server before its clock moves on.
      await pause(10)
      time.advance(STEP_MS)
    }
    for (const [label, connection] of [['never', never], ['trickle', trickle]] as const) {
      expect(connection.received(), `no answer yet after 9.9 s: ${label}`).to.equal('')
    }
    time.advance(500)
    try {
      for (const [label, connection] of [['never', never], ['trickle', trickle]] as const) {
        // At once: the server's clock has passed the bound already.
        expect(await settlesWithin(connection.closed, 2_000), `closed by the server: ${label}`).to.equal(true)
        expect(finalResponses(connection.received()).map((answer) => answer.status), label).to.deep.equal([408])
      }
      for (const [name, connection] of [['Aloe', steady], ['Ficus', stalled]] as const) {
        await waitForText(connection, new RegExp(`"name":"${name}"`), 5_000)
        expect(finalResponses(connection.received()).map((answer) => answer.status), name).to.deep.equal([200])
      }
    } finally {
      for (const connection of [never, trickle, steady, stalled]) connection.socket.destroy()
    }
  })
})
