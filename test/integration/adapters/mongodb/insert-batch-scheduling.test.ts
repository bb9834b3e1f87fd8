import { expect } from 'chai'
import { WriteConcern, type Collection } from 'mongodb'
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises'
import { readFileSync } from 'node:fs'
import {
  DEFAULT_INSERT_BATCH_LIMITS,
  insertBatchLimitsFor,
  makeInsertBatches,
  type CallBound,
  type InsertBatchLimits,
  type InsertResult,
} from '../../../../adapters/mongodb/insert-batches.js'
import type { PlantDocument } from '../../../../adapters/mongodb/plant-document.js'
import { PlantId, PlantName } from '../../../../core/index.js'
import { expectRight } from '../../../support/either.js'

// How batches are formed, seen through a collection that records each insertMany and answers
// when the test says: which documents go together, under which signal, and when.
interface Sent {
  readonly ids: ReadonlyArray<bigint>
  readonly signal: AbortSignal
  readonly answer: () => void
}

const recordingCollection = () => {
  const sent: Sent[] = []
  const record = (documents: ReadonlyArray<PlantDocument>, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      sent.push({ ids: documents.map(({ _id }) => _id), signal, answer: resolve })
    })
  const collection = {
    insertMany: (documents: ReadonlyArray<PlantDocument>, options: { readonly signal: AbortSignal; readonly ordered: boolean }) => {
      expect(options.ordered, 'a batch is unordered: one refused document must not stop the rest').to.equal(false)
      return record(documents, options.signal)
    },
    insertOne: (document: PlantDocument, options: { readonly signal: AbortSignal }) => record([document], options.signal),
  } as unknown as Collection<PlantDocument>
  return { sent, collection }
}

const doc = (id: number): PlantDocument => ({
  _id: expectRight(PlantId.decode(BigInt(id))),
  name: expectRight(PlantName.decode(`plant ${id}`)),
})

const bound = (deadline: number, controller = new AbortController()): CallBound => ({ signal: controller.signal, deadline })

// A wait no test sees end: longer than mocha lets a test run. No longer, as the timer of a wait
// left pending outlives the test and holds the run's process until it fires.
const NO_WAIT_ENDS_MS = 10_000

// Limits for a test of one rule: the others out of its way (no wait ends, no deadline too far
// from another's, room on the wire), unless the test names them.
const limits = (given: Partial<InsertBatchLimits> & Pick<InsertBatchLimits, 'maxDocuments' | 'maxInFlight'>): InsertBatchLimits => ({
  maxWaitMs: NO_WAIT_ENDS_MS,
  maxOnWire: 100,
  maxDeadlineSpreadMs: 60_000,
  ...given,
})

const untilSent = async (sent: ReadonlyArray<Sent>, count: number): Promise<void> => {
  while (sent.length < count) await sleep(1)
}

describe('insert batches: which creates go together', function () {
  it('sends the creates made together as one batch, in arrival order, without waiting for a turn of the event loop', async function () {
    const { sent, collection } = recordingCollection()
    const batches = makeInsertBatches(collection, limits({ maxDocuments: 10, maxInFlight: 1 }))
    const results = [1, 2, 3].map((id) => batches.insert(doc(id), bound(1000)))
    await Promise.resolve()
    expect(sent.map(({ ids }) => ids)).to.deep.equal([[1n, 2n, 3n]])
    sent[0]?.answer()
    expect(await Promise.all(results)).to.deep.equal(['inserted', 'inserted', 'inserted'])
  })

  it('sends a batch under the signal of the member whose deadline comes first', async function () {
    const { sent, collection } = recordingCollection()
    const batches = makeInsertBatches(collection, limits({ maxDocuments: 10, maxInFlight: 1 }))
    const soonest = new AbortController()
    void batches.insert(doc(1), bound(300))
    void batches.insert(doc(2), bound(100, soonest))
    void batches.insert(doc(3), bound(200))
    await nextTurn()
    expect(sent).to.have.length(1)
    expect(sent[0]?.signal).to.equal(soonest.signal)
  })

  it('never sends a create whose deadline passed while it waited, and lets it go', async function () {
    const { sent, collection } = recordingCollection()
    const batches = makeInsertBatches(collection, limits({ maxDocuments: 10, maxInFlight: 1 }))
    void batches.insert(doc(1), bound(1000))
    await nextTurn()
    const expired = new AbortController()
    const waiting = batches.insert(doc(2), bound(100, expired)).then(
      () => 'sent',
      (error: unknown) => (error as Error).message,
    )
    const live = batches.insert(doc(3), bound(1000))
    expired.abort(new Error('deadline passed'))
    sent[0]?.answer()
    await nextTurn()
    await nextTurn()
    expect(sent.map(({ ids }) => ids)).to.deep.equal([[1n], [3n]])
    expect(await waiting).to.equal('deadline passed')
    sent[1]?.answer()
    expect(await live).to.equal('inserted' satisfies InsertResult)
  })

  it('keeps at most maxInFlight batches on the wire; the creates arriving meanwhile go together next', async function () {
    const { sent, collection } = recordingCollection()
    const batches = makeInsertBatches(collection, limits({ maxDocuments: 10, maxInFlight: 2 }))
    void batches.insert(doc(1), bound(1000))
    await nextTurn()
    void batches.insert(doc(2), bound(1000))
    await nextTurn()
    for (const id of [3, 4, 5]) void batches.insert(doc(id), bound(1000))
    await nextTurn()
    expect(sent.map(({ ids }) => ids), 'two on the wire, three waiting').to.deep.equal([[1n], [2n]])
    sent[0]?.answer()
    await nextTurn()
    await nextTurn()
    expect(sent.map(({ ids }) => ids)).to.deep.equal([[1n], [2n], [3n, 4n, 5n]])
  })

  it('gives up a batch\'s place at its deadline though the driver has not settled it, and ignores the late settlement', async function () {
    const { sent, collection } = recordingCollection()
    const batches = makeInsertBatches(collection, limits({ maxDocuments: 10, maxInFlight: 1 }))
    const expiring = new AbortController()
    const first = [1, 2].map((id) => batches.insert(doc(id), bound(100, expiring)).catch((error: unknown) => (error as Error).message))
    await nextTurn()
    const next = batches.insert(doc(3), bound(1000))
    await nextTurn()
    expect(sent.map(({ ids }) => ids), 'the second waits for the place').to.deep.equal([[1n, 2n]])
    expiring.abort(new Error('deadline passed'))
    expect(await Promise.all(first)).to.deep.equal(['deadline passed', 'deadline passed'])
    await nextTurn()
    expect(sent.map(({ ids }) => ids)).to.deep.equal([[1n, 2n], [3n]])
    sent[0]?.answer()
    sent[1]?.answer()
    expect(await next).to.equal('inserted' satisfies InsertResult)
  })

  it('splits what waits into batches of at most maxDocuments', async function () {
    const { sent, collection } = recordingCollection()
    const batches = makeInsertBatches(collection, limits({ maxDocuments: 2, maxInFlight: 2 }))
    for (const id of [1, 2, 3, 4, 5]) void batches.insert(doc(id), bound(1000))
    await nextTurn()
    await nextTurn()
    expect(sent.map(({ ids }) => ids)).to.deep.equal([[1n, 2n], [3n, 4n]])
    sent[0]?.answer()
    await nextTurn()
    await nextTurn()
    expect(sent.map(({ ids }) => ids)).to.deep.equal([[1n, 2n], [3n, 4n], [5n]])
  })
})

describe('insert batches: what a create may wait for', function () {
  it('waits at most maxWaitMs for an insert on the wire, then goes with the creates that waited with it, in an insert of its own', async function () {
    const { sent, collection } = recordingCollection()
    const batches = makeInsertBatches(collection, limits({ maxDocuments: 10, maxInFlight: 1, maxWaitMs: 30 }))
    void batches.insert(doc(1), bound(1000))
    await nextTurn()
    const waitedFrom = performance.now()
    const waited = [2, 3].map((id) => batches.insert(doc(id), bound(1000)))
    await nextTurn()
    expect(sent.map(({ ids }) => ids), 'waiting for the insert on the wire').to.deep.equal([[1n]])
    await untilSent(sent, 2)
    expect(performance.now() - waitedFrom, 'waited').to.be.at.least(30)
    expect(sent.map(({ ids }) => ids), 'the first still on the wire').to.deep.equal([[1n], [2n, 3n]])
    sent[1]?.answer()
    expect(await Promise.all(waited)).to.deep.equal(['inserted', 'inserted'])
  })

  it('goes as soon as an insert on the wire ends, if that comes before maxWaitMs', async function () {
    const { sent, collection } = recordingCollection()
    const batches = makeInsertBatches(collection, limits({ maxDocuments: 10, maxInFlight: 1, maxWaitMs: NO_WAIT_ENDS_MS }))
    void batches.insert(doc(1), bound(1000))
    await nextTurn()
    const waiting = batches.insert(doc(2), bound(1000))
    await sleep(20)
    expect(sent.map(({ ids }) => ids)).to.deep.equal([[1n]])
    sent[0]?.answer()
    await untilSent(sent, 2)
    sent[1]?.answer()
    expect(await waiting).to.equal('inserted' satisfies InsertResult)
  })

  it('never has more than maxOnWire inserts on the wire: beyond, creates wait for one to end, however long', async function () {
    const { sent, collection } = recordingCollection()
    const batches = makeInsertBatches(collection, limits({ maxDocuments: 10, maxInFlight: 1, maxWaitMs: 5, maxOnWire: 2 }))
    void batches.insert(doc(1), bound(10_000))
    await nextTurn()
    void batches.insert(doc(2), bound(10_000))
    await untilSent(sent, 2)
    const last = batches.insert(doc(3), bound(10_000))
    await sleep(100)
    expect(sent.map(({ ids }) => ids), 'two on the wire, the third waiting').to.deep.equal([[1n], [2n]])
    void batches.insert(doc(4), bound(10_000))
    sent[0]?.answer()
    await untilSent(sent, 3)
    expect(sent.map(({ ids }) => ids)).to.deep.equal([[1n], [2n], [3n, 4n]])
    sent[2]?.answer()
    expect(await last).to.equal('inserted' satisfies InsertResult)
  })

  it('puts in one insert only creates whose deadlines lie within maxDeadlineSpreadMs of one another, each insert under its own earliest', async function () {
    const { sent, collection } = recordingCollection()
    const batches = makeInsertBatches(collection, limits({ maxDocuments: 10, maxInFlight: 2, maxDeadlineSpreadMs: 10 }))
    const [first, third] = [new AbortController(), new AbortController()]
    void batches.insert(doc(1), bound(1000, first))
    void batches.insert(doc(2), bound(1010))
    void batches.insert(doc(3), bound(1011, third))
    void batches.insert(doc(4), bound(1020))
    await nextTurn()
    expect(sent.map(({ ids }) => ids)).to.deep.equal([[1n, 2n], [3n, 4n]])
    expect(sent.map(({ signal }) => signal)).to.deep.equal([first.signal, third.signal])
  })

  it('the insert that takes the last place on the wire takes every create waiting, whatever their deadlines, under the earliest', async function () {
    const { sent, collection } = recordingCollection()
    const batches = makeInsertBatches(collection, limits({ maxDocuments: 10, maxInFlight: 1, maxWaitMs: 5, maxOnWire: 2, maxDeadlineSpreadMs: 10 }))
    void batches.insert(doc(1), bound(1000))
    await nextTurn()
    void batches.insert(doc(2), bound(1000))
    await untilSent(sent, 2)
    const earliest = new AbortController()
    void batches.insert(doc(3), bound(1100, earliest))
    void batches.insert(doc(4), bound(1200))
    void batches.insert(doc(5), bound(1300))
    sent[0]?.answer()
    await untilSent(sent, 3)
    expect(sent.map(({ ids }) => ids), 'the last place on the wire is not held to the spread').to.deep.equal([[1n], [2n], [3n, 4n, 5n]])
    expect(sent[2]?.signal).to.equal(earliest.signal)
  })

  it('sends each insert with the write concern its earliest deadline leaves time for', async function () {
    const seen: Array<{ ids: bigint[]; msLeft: number }> = []
    const collection = {
      insertMany: (documents: ReadonlyArray<PlantDocument>, options: { readonly writeConcern?: { readonly wtimeoutMS?: number } }) => {
        seen.push({ ids: documents.map(({ _id }) => _id), msLeft: options.writeConcern?.wtimeoutMS ?? NaN })
        return Promise.resolve()
      },
      insertOne: (document: PlantDocument, options: { readonly writeConcern?: { readonly wtimeoutMS?: number } }) => {
        seen.push({ ids: [document._id], msLeft: options.writeConcern?.wtimeoutMS ?? NaN })
        return Promise.resolve()
      },
    } as unknown as Collection<PlantDocument>
    const now = performance.now()
    const batches = makeInsertBatches(collection, limits({ maxDocuments: 10, maxInFlight: 2 }), (msLeft) => new WriteConcern('majority', Math.round(msLeft)))
    await Promise.all([batches.insert(doc(1), bound(now + 800)), batches.insert(doc(2), bound(now + 600))])
    await batches.insert(doc(3), bound(now + 400))
    expect(seen.map(({ ids }) => ids)).to.deep.equal([[1n, 2n], [3n]])
    expect(seen[0]?.msLeft, 'a batch: the time its earliest create has left').to.be.within(550, 600)
    expect(seen[1]?.msLeft, 'an insert of its own: its time left').to.be.within(350, 400)
  })

  it('takes its limits on the wire from the driver\'s pool, and its waits from the deadline', function () {
    expect(insertBatchLimitsFor(100, 5000)).to.deep.equal({ maxDocuments: 256, maxInFlight: 1, maxWaitMs: 50, maxOnWire: 100, maxDeadlineSpreadMs: 50 })
    expect(insertBatchLimitsFor(1, 1500)).to.include({ maxOnWire: 1, maxInFlight: 1, maxWaitMs: 15, maxDeadlineSpreadMs: 15 })
    expect(insertBatchLimitsFor(0, 5000), 'a pool without a limit').to.include({ maxOnWire: Infinity, maxInFlight: 1 })
  })
})

describe('docs/mongodb.md on insert batches', function () {
  it('states the limits the adapter has', function () {
    const page = readFileSync(new URL('../../../../docs/mongodb.md', import.meta.url), 'utf8').replace(/\s+/g, ' ')
    const goesAtOnce = /While no insert is on its way/.test(page) ? '1' : /While fewer than (\d+) inserts are on their way/.exec(page)?.[1]
    expect(goesAtOnce, 'inserts on the wire below which a create goes at once').to.equal(String(DEFAULT_INSERT_BATCH_LIMITS.maxInFlight))
    expect(/`maxPoolSize`, (\d+) by default/.exec(page)?.[1], 'inserts on the wire').to.equal(String(DEFAULT_INSERT_BATCH_LIMITS.maxOnWire))
    expect(/unordered `insert` of up to (\d+) plants/.exec(page)?.[1], 'plants in one insert').to.equal(String(DEFAULT_INSERT_BATCH_LIMITS.maxDocuments))
    expect(/waits at most a hundredth of its deadline \((\d+) ms by default\)/.exec(page)?.[1], 'wait for an insert on the wire').to.equal(
      String(DEFAULT_INSERT_BATCH_LIMITS.maxWaitMs),
    )
    expect(/deadlines at most a hundredth of the deadline apart \((\d+) ms by default\)/.exec(page)?.[1], 'deadlines in one insert').to.equal(
      String(DEFAULT_INSERT_BATCH_LIMITS.maxDeadlineSpreadMs),
    )
  })
})
