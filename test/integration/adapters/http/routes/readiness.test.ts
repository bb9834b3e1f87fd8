import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { DEFAULT_READINESS_MAX_AGE_MS } from '../../../../../adapters/http/index.js'
import { makeInMemoryPlantStore } from '../../../../../adapters/in-memory/index.js'
import { storageUnavailable, type PlantStore } from '../../../../../core/index.js'
import { startTestApp } from '../../../../support/http-app.js'

// /readyz needs no token: however many probes arrive, storage is asked at most once per period,
// and a change of storage's state shows within that period.

const countingStore = (): PlantStore & { readonly calls: () => number; readonly setDown: (down: boolean) => void } => {
  const inner = makeInMemoryPlantStore()
  let calls = 0
  let down = false
  return {
    insertUnlessExists: inner.insertUnlessExists,
    checkReady: () => async () => {
      calls += 1
      // A probe takes a while, as a database round trip does.
      await new Promise((resolve) => setTimeout(resolve, 20))
      return down ? E.left(storageUnavailable(new Error('down'))) : E.right(undefined)
    },
    calls: () => calls,
    setDown: (value) => {
      down = value
    },
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('/readyz asks storage at most once per period', function () {
  it('is one storage probe a second by default', function () {
    expect(DEFAULT_READINESS_MAX_AGE_MS).to.equal(1000)
  })

  it('answers 300 probes, concurrent and in a row, with one storage probe', async function () {
    const store = countingStore()
    const periodMs = 5000
    const app = await startTestApp({ plantStore: store, readinessMaxAgeMs: periodMs }, { maxConnectionsPerAddress: 1000 })
    try {
      const started = performance.now()
      const concurrent = await Promise.all(Array.from({ length: 200 }, () => fetch(`${app.url}/readyz`).then((r) => r.status)))
      for (let i = 0; i < 100; i += 1) concurrent.push((await fetch(`${app.url}/readyz`)).status)
      // One storage probe a period: one, unless this machine, busy, took more than a period for them.
      const periods = Math.ceil((performance.now() - started) / periodMs)
      expect(new Set(concurrent)).to.deep.equal(new Set([200]))
      expect(store.calls()).to.be.within(1, periods)
    } finally {
      await app.close()
    }
  })

  it('shows a change of storage within the period, asking again only once it has passed', async function () {
    const store = countingStore()
    const app = await startTestApp({ plantStore: store, readinessMaxAgeMs: 300 })
    try {
      expect((await fetch(`${app.url}/readyz`)).status).to.equal(200)
      store.setDown(true)
      expect((await fetch(`${app.url}/readyz`)).status, 'the answer of the last probe, within the period').to.equal(200)
      await delay(350)
      expect((await fetch(`${app.url}/readyz`)).status).to.equal(503)
      expect(store.calls()).to.equal(2)
    } finally {
      await app.close()
    }
  })

  it('answers 503 at once when the service drains, whatever the last probe said', async function () {
    let draining = false
    const app = await startTestApp({ readinessMaxAgeMs: 60_000, draining: () => draining })
    try {
      expect((await fetch(`${app.url}/readyz`)).status).to.equal(200)
      draining = true
      expect((await fetch(`${app.url}/readyz`)).status).to.equal(503)
    } finally {
      await app.close()
    }
  })
})
