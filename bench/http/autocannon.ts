// Load from autocannon's library API, when wrk is not on PATH. It runs in this process and needs
// about a core of its own, so it saturates before the fastest servers do: the report says so.
// autocannon comes with bench's own install (scripts/install-tools.mjs), read when a load runs or
// is described, so that the harness's other modules and their tests load without it.
import type autocannon from 'autocannon'
import { createRequire } from 'node:module'
import type { LoadGenerator, LoadResult, LoadShape } from './load.js'
import { FRESH, nthRequest, type Workload } from './workload.js'

const version = (): string => (createRequire(import.meta.url)('autocannon/package.json') as { version: string }).version

const cannon = async (
  url: string,
  token: string,
  shape: LoadShape,
  firstId: number,
  amount: number | undefined,
  workload: Workload,
): Promise<LoadResult> => {
  const { default: autocannon } = await import('autocannon')
  return new Promise((resolve, reject) => {
    let sent = 0
    let fresh = 0
    const options: autocannon.Options = {
      url: `${url}/plants`,
      connections: shape.connections,
      duration: shape.durationSeconds,
      timeout: 5,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request) => {
            const { kind, freshIndex } = nthRequest(workload, sent++, fresh)
            if (kind === 'fresh') fresh += 1
            const id = firstId + freshIndex
            return { ...request, body: `{"id":${id},"name":"${kind === 'conflict' ? 'Other' : 'Plant'} ${id}","tag":"bench"}` }
          },
        },
      ],
      ...(amount === undefined ? {} : { amount }),
    }
    const instance = autocannon(options, (error: unknown, result) => {
      clearTimeout(deadline)
      if (error !== null && error !== undefined) reject(error instanceof Error ? error : new Error(String(error)))
      else
        resolve({
          requests: result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'],
          seconds: result.duration,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          non2xx: result['4xx'] + result['5xx'],
          socketErrors: result.errors,
        })
    })
    // With `amount`, autocannon ignores the duration: bound the run here.
    const deadline = setTimeout(() => instance.stop(), shape.durationSeconds * 1000)
  })
}

export const autocannonLoad: LoadGenerator = {
  get description() {
    return `autocannon ${version()} (library API, in the harness process)`
  },
  run: (url, token, shape, firstId, workload) => cannon(url, token, shape, firstId, undefined, workload),
  send: (url, token, shape, firstId, count) => cannon(url, token, shape, firstId, count, FRESH),
}
