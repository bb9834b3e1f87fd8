import { expect } from 'chai'
import { gzipSync } from 'node:zlib'
import { makeDecodeQueue } from '../../../../adapters/http/body/decode-queue.js'
import { openRaw } from '../../../support/raw-http.js'
import { postPlant, startTestApp, TOKEN, type TestApp } from '../../../support/http-app.js'

// The turns of the decoders go round the connections, and no body waits longer than the bound.

const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe('the decode queue', function () {
  it('serves one body of each waiting connection in turn, however many one connection queued', async function () {
    const queue = makeDecodeQueue({ concurrency: 1, maxWaitMs: 10_000 })
    const greedy = {}
    const polite = {}
    const order: string[] = []
    const run = (name: string) => async () => {
      order.push(name)
      await later(5)
      return name
    }
    const all = [
      ...Array.from({ length: 10 }, (_, i) => queue.decode(greedy, run(`greedy-${i}`), 'late')),
      queue.decode(polite, run('polite'), 'late'),
    ]
    await Promise.all(all)
    // The greedy connection's first body was already decoding; the polite one is next.
    expect(order.indexOf('polite'), order.join(' ')).to.be.at.most(2)
  })

  it('answers tooLate for a body whose turn does not come within the wait, without running it', async function () {
    const queue = makeDecodeQueue({ concurrency: 1, maxWaitMs: 50 })
    let ran = 0
    const slow = queue.decode({}, async () => {
      ran += 1
      await later(300)
      return 'done'
    }, 'late')
    const waiting = queue.decode({}, async () => {
      ran += 1
      return 'done'
    }, 'late')
    expect(await waiting).to.equal('late')
    expect(await slow).to.equal('done')
    expect(ran).to.equal(1)
  })

  it('keeps queues of two apps apart: a busy one does not hold the other', async function () {
    const busy = makeDecodeQueue({ concurrency: 1, maxWaitMs: 10_000 })
    const other = makeDecodeQueue({ concurrency: 1, maxWaitMs: 10_000 })
    void busy.decode({}, () => later(500).then(() => 'slow'), 'late')
    const started = performance.now()
    expect(await other.decode({}, async () => 'quick', 'late')).to.equal('quick')
    expect(performance.now() - started).to.be.below(400)
  })

  it('settles as the decode does when it fails, and goes on with the next', async function () {
    const queue = makeDecodeQueue({ concurrency: 1, maxWaitMs: 10_000 })
    const failing = queue.decode({}, () => Promise.reject(new Error('boom')), 'late')
    const next = queue.decode({}, async () => 'next', 'late')
    let failure: unknown
    await failing.catch((error: unknown) => (failure = error))
    expect(String(failure)).to.contain('boom')
    expect(await next).to.equal('next')
  })
})

describe('compressed bodies from a connection that sends many', function () {
  this.timeout(20_000)
  let app: TestApp | undefined
  after(async function () {
    await app?.close()
  })

  it('do not hold up another connection\'s compressed body', async function () {
    app = await startTestApp({}, { maxRequestsWaiting: 64 })
    // Each inflates to about 60 KB of JSON: a name the limit still admits.
    const coded = gzipSync(`{"id":1,"name":"${'x'.repeat(60_000)}"}`)
    const request = `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${coded.length}\r\n\r\n`
    const greedy = await openRaw(app.url)
    const answersOfGreedy: number[] = []
    greedy.socket.on('data', () => answersOfGreedy.push(performance.now()))
    for (let i = 0; i < 40; i += 1) {
      greedy.socket.write(request)
      greedy.socket.write(coded)
    }
    const polite = await postPlant(app.url, new Uint8Array(gzipSync('{"id":2,"name":"Fern"}')), { 'Content-Encoding': 'gzip' })
    const politeAt = performance.now()
    expect(polite.status).to.equal(200)
    const answered = (): number => (greedy.received().match(/HTTP\/1\.1 /g) ?? []).length
    const deadline = Date.now() + 10_000
    while (answered() < 40 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    greedy.socket.destroy()
    expect(answered()).to.equal(40)
    const greedyBefore = answersOfGreedy.filter((at) => at < politeAt).length
    expect(greedyBefore, 'chunks of the greedy connection answered before the polite one').to.be.below(answersOfGreedy.length / 2)
  })
})
