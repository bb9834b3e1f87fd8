import { expect } from 'chai'
import { gzipSync } from 'node:zlib'
import { makeDecodeQueue, type Decoding } from '../../../../../adapters/http/body/decode-queue.js'
import { openRaw } from '../../../../support/raw-http.js'
import { postPlant, startTestApp, TOKEN, type TestApp } from '../../../../support/http-app.js'

// The turns of the decoders go round the clients a step at a time, and no body is waited for past
// its deadline.

const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

// A decode of `steps` steps of `ms` each, its steps and its abandonment written down in `log`.
const stepped = (name: string, log: string[], steps = 1, ms = 5): (() => Decoding<string>) => () => {
  let left = steps
  return {
    step: async () => {
      log.push(name)
      await later(ms)
      left -= 1
      return left === 0 ? name : undefined
    },
    abandon: () => log.push(`${name} abandoned`),
  }
}

describe('the decode queue', function () {
  it('serves one body of each waiting client in turn, however many one client queued', async function () {
    const queue = makeDecodeQueue({ decoders: 1, maxMs: 10_000 })
    const order: string[] = []
    const all = [
      ...Array.from({ length: 10 }, (_, i) => queue.decode('greedy', stepped(`greedy-${i}`, order), Infinity, 'late')),
      queue.decode('polite', stepped('polite', order), Infinity, 'late'),
    ]
    await Promise.all(all)
    // The greedy client's first body was already decoding; the polite one is next.
    expect(order.indexOf('polite'), order.join(' ')).to.be.at.most(2)
  })

  it('takes turns step by step: a one-step body waits one step of a long one, not the whole', async function () {
    const queue = makeDecodeQueue({ decoders: 2, maxMs: 10_000 })
    const order: string[] = []
    const long = queue.decode('big', stepped('big', order, 20, 2), Infinity, 'late')
    await later(10)
    expect(await queue.decode('small', stepped('small', order), Infinity, 'late')).to.equal('small')
    expect(order.filter((name) => name === 'big').length, order.join(' ')).to.be.below(10)
    expect(await long).to.equal('big')
  })

  it('holds at most `decoders` bodies begun at once, the others waiting for one to end', async function () {
    const queue = makeDecodeQueue({ decoders: 1, maxMs: 10_000 })
    const order: string[] = []
    const first = queue.decode('a', stepped('a', order, 3), Infinity, 'late')
    const second = queue.decode('b', stepped('b', order, 3), Infinity, 'late')
    await Promise.all([first, second])
    expect(order.join(' ')).to.equal('a a a b b b')
  })

  it('answers tooLate at the deadline, waiting or half decoded, and abandons the decode begun', async function () {
    const queue = makeDecodeQueue({ decoders: 1, maxMs: 10_000 })
    const log: string[] = []
    const slow = queue.decode('a', stepped('slow', log, 1_000, 5), performance.now() + 100, 'late')
    const waiting = queue.decode('b', stepped('waiting', log), performance.now() + 50, 'late')
    expect(await waiting).to.equal('late')
    const started = performance.now()
    expect(await slow).to.equal('late')
    // Abandoned at its deadline, not when its 1 s step would have ended: a bound far from both, so a
    // busy machine's late timers do not read as a decode that ran on.
    expect(performance.now() - started, 'ms past the deadline').to.be.below(600)
    expect(log).to.include('slow abandoned')
    expect(log).not.to.include('waiting')
  })

  it('bounds a body by maxMs when its deadline is later, and runs none whose deadline is past', async function () {
    const queue = makeDecodeQueue({ decoders: 1, maxMs: 50 })
    const log: string[] = []
    expect(await queue.decode('a', stepped('slow', log, 1_000), Infinity, 'late')).to.equal('late')
    expect(await queue.decode('a', stepped('past', log), performance.now() - 1, 'late')).to.equal('late')
    expect(log).not.to.include('past')
  })

  it('keeps queues of two apps apart: a busy one does not hold the other', async function () {
    const busy = makeDecodeQueue({ decoders: 1, maxMs: 10_000 })
    const other = makeDecodeQueue({ decoders: 1, maxMs: 10_000 })
    void busy.decode('a', stepped('slow', [], 1, 500), Infinity, 'late')
    const started = performance.now()
    expect(await other.decode('a', stepped('quick', []), Infinity, 'late')).to.equal('quick')
    expect(performance.now() - started).to.be.below(400)
  })

  it('settles as a step does when it fails, and goes on with the next', async function () {
    const queue = makeDecodeQueue({ decoders: 1, maxMs: 10_000 })
    const failing = queue.decode('a', () => ({ step: () => Promise.reject(new Error('boom')), abandon: () => {} }), Infinity, 'late')
    const next = queue.decode('a', stepped('next', []), Infinity, 'late')
    let failure: unknown
    await failing.catch((error: unknown) => (failure = error))
    expect(String(failure)).to.contain('boom')
    expect(await next).to.equal('next')
  })
})

describe('compressed bodies from a client that sends many', function () {
  this.timeout(20_000)
  let app: TestApp | undefined
  after(async function () {
    await app?.close()
  })

  it('do not hold up another client\'s compressed body', async function () {
    app = await startTestApp({}, { maxRequestsWaiting: 64 })
    // Each inflates to about 60 KB of JSON: a name the limit still admits.
    const coded = gzipSync(`{"id":1,"name":"${'x'.repeat(60_000)}"}`)
    const request = `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${coded.length}\r\n\r\n`
    // Another client: the server sees 127.0.0.2, not the polite client's 127.0.0.1.
    const greedy = await openRaw(app.url, '127.0.0.2')
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
