import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Registry } from 'prom-client'
import { delay } from '../../../../core/index.js'
import { timed } from '../../../../adapters/prometheus/timed.js'
import { metricsRequestHandler } from '../../../../adapters/prometheus/index.js'
import { virtualClock } from '../../../support/virtual-clock.js'

// The rules, as the Prometheus adapter states them: a call's latency is the clock's time from its
// start to its settling; the metrics text is rendered at most once a second, scrapes that come
// while it renders share it, and a scrape's values are at most a second old.
describe('the Prometheus adapter, on virtual time', () => {
  it('times a call from its start to its settling, answer or defect', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 100_000 }), fc.boolean(), async (ms, rejects) => {
        const { clock, advanceAsync } = virtualClock()
        const seen: Array<readonly [string, number]> = []
        const task = timed(
          async () => {
            await delay(clock, ms)
            if (rejects) throw new Error('a defect')
            return E.right('done')
          },
          (answer, seconds) => seen.push([answer === undefined ? 'defect' : answer._tag, seconds]),
          clock,
        )
        const started = clock.now()
        const settled = task().then(
          () => clock.now(),
          () => clock.now(),
        )
        await advanceAsync(ms + 5)
        const at = await settled
        expect(at - started).to.be.at.least(ms)
        expect(seen).to.deep.equal([[rejects ? 'defect' : 'Right', (at - started) / 1000]])
      }),
    )
  })

  it('renders the registry at most once a second, each scrape given a text at most a second old', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 1_500 }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 3_000 }),
        async (gaps, renderMs) => {
          const { clock, advanceAsync } = virtualClock()
          const renders: number[] = []
          const registry = {
            contentType: 'text/plain',
            metrics: async () => {
              const at = clock.now()
              renders.push(at)
              await delay(clock, renderMs)
              return String(at)
            },
          } as unknown as Registry
          const handle = metricsRequestHandler(registry, { clock })
          const scrapes: Array<Promise<readonly [number, string]>> = []
          for (const gap of gaps) {
            await advanceAsync(gap)
            const at = clock.now()
            scrapes.push(
              new Promise((resolve) => {
                const res = { writeHead: () => res, end: (text: string) => resolve([at, text]) } as unknown as ServerResponse
                handle({ url: '/metrics', method: 'GET' } as IncomingMessage, res)
              }),
            )
          }
          await advanceAsync(renderMs + 10)
          for (const [i, at] of renders.entries()) if (i > 0) expect(at - (renders[i - 1] ?? 0)).to.be.at.least(1_000)
          for (const [at, text] of await Promise.all(scrapes)) {
            const renderedAt = Number(text)
            expect(renderedAt).to.be.at.most(at)
            expect(at - renderedAt, `a scrape at ${at} ms`).to.be.below(1_000)
          }
        },
      ),
    )
  })
})
