import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import * as E from 'fp-ts/lib/Either.js'
import { useCurrentBuild } from '../../support/current-build.js'
import { TOKEN } from '../../support/http-app.js'

// The files of ours one steady-state POST /plants runs, as V8's precise coverage of that one
// request names them, on the build the service runs as (dist/), composed as `npm start` composes
// it: in memory, the request log on, no metrics, no tracer provider registered. The page that
// lists the request's way for contributors is held to it, so a file that joins the way fails this
// test until the page, and the reason, say so.
const DIST = new URL('../../../dist/', import.meta.url).href
const PAGE = new URL('../../../docs/request-way.md', import.meta.url)

// The way as docs/request-way.md lists it: the numbered list's file names, in its order.
const listedWay = (): ReadonlyArray<string> =>
  [...readFileSync(PAGE, 'utf8').matchAll(/^\d+\. `([^`]+)`/gm)].map(([, file]) => file as string)

/** Most files one request may run, the goal the way is held to. */
const MOST_FILES = 26

describe('the way of one POST /plants through the code', function () {
  this.timeout(120_000)
  useCurrentBuild()

  let ran: ReadonlyArray<string> = []
  before(async function () {
    ran = await filesOneRequestRuns()
  })

  it('is the way docs/request-way.md lists, file for file', function () {
    expect([...listedWay()].sort()).to.deep.equal([...ran].sort())
  })

  it(`runs at most ${MOST_FILES} files of ours`, function () {
    expect(ran.length, ran.join(', ')).to.be.at.most(MOST_FILES)
  })
})

const filesOneRequestRuns = async (): Promise<ReadonlyArray<string>> => {
  const { loadConfig } = (await import(`${DIST}apps/server/config.js`)) as typeof import('../../../apps/server/config.js')
  const { startService } = (await import(`${DIST}apps/server/service.js`)) as typeof import('../../../apps/server/service.js')
  const { asLoggerPort, makePino } = (await import(`${DIST}apps/server/logger.js`)) as typeof import('../../../apps/server/logger.js')
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', PLANT_STORE_TOKENS: TOKEN, SHUTDOWN_DRAIN_MS: '0' })
  if (E.isLeft(config)) throw new Error(config.left.join('; '))
  // The service's own logger, writing its lines nowhere.
  const log = asLoggerPort(makePino('info', { write: () => undefined }))
  const started = await startService(config.right, log, () => undefined)
  if (E.isLeft(started)) throw new Error(started.left.message)
  const { url, close } = started.right
  const session = new Session()
  session.connect()
  try {
    let id = 0
    const post = async (): Promise<void> => {
      id += 1
      const answer = await fetch(`${url}/plants`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: `{"id":${id},"name":"Monstera"}`,
      })
      expect(answer.status).to.equal(200)
      await answer.arrayBuffer()
    }
    await session.post('Profiler.enable')
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
    // Warm: the first requests run what is made once (the id table's first shard, say).
    for (let warm = 0; warm < 50; warm += 1) await post()
    // Taking the coverage resets its counts: what the next take names ran for that one request.
    await session.post('Profiler.takePreciseCoverage')
    await post()
    const { result } = await session.post('Profiler.takePreciseCoverage')
    await session.post('Profiler.stopPreciseCoverage')
    return result
      .filter(({ url: file, functions }) => file.startsWith(DIST) && functions.some(({ ranges }) => ranges.some(({ count }) => count > 0)))
      .map(({ url: file }) => file.slice(DIST.length).replace(/\.js$/, '.ts'))
  } finally {
    session.disconnect()
    await close()
  }
}
