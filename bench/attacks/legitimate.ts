// The legitimate client the attacks are measured against: POSTs of new plants, one after the
// other on one kept-alive connection, from 127.0.0.1. Its rate (plants stored a second) beside an
// attack over its rate alone, in the same run, is what the bench reports.
import { Agent, request } from 'node:http'
import { gzipSync } from 'node:zlib'
import { HOST, TOKEN } from './attacks.js'

export interface LegitimateRate {
  /** POSTs answered 200 a second. */
  readonly storedPerSecond: number
  /** Answers other than 200, and requests that got none. */
  readonly failed: number
}

const postOnce = (agent: Agent, port: number, body: Buffer, gzip: boolean): Promise<number> =>
  new Promise((resolve) => {
    const req = request(
      {
        host: HOST,
        port,
        localAddress: HOST,
        path: '/plants',
        method: 'POST',
        agent,
        timeout: 30_000,
        headers: {
          Authorization: `Bearer ${TOKEN}`,
          'Content-Type': 'application/json',
          'Content-Length': body.length,
          ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
        },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', () => resolve(0))
      },
    )
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(0))
    req.end(body)
  })

/** Sends plants numbered from `firstId` for `ms`, and counts those stored. */
export const legitimateRate = async (port: number, ms: number, firstId: number, coding: 'json' | 'gzip'): Promise<LegitimateRate> => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const started = performance.now()
  let stored = 0
  let failed = 0
  for (let id = firstId; performance.now() - started < ms; id += 1) {
    const json = Buffer.from(`{"id":${id},"name":"Fern","tag":"legitimate"}`)
    const status = await postOnce(agent, port, coding === 'gzip' ? gzipSync(json) : json, coding === 'gzip')
    if (status === 200) stored += 1
    else failed += 1
  }
  agent.destroy()
  return { storedPerSecond: (stored * 1000) / (performance.now() - started), failed }
}
