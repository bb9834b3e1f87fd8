// The legitimate clients the attacks are measured against, from 127.0.0.1: one that sends POSTs of
// new plants one after the other on one kept-alive connection, as fast as they are answered (the
// most the service gives one client), and one that sends them at a steady pace, each on a fresh
// connection, as many clients each sending now and then do. Their rates (plants stored a second)
// beside an attack over their rates alone, in the same run, are what the bench reports.
import { Agent, request } from 'node:http'
import { gzipSync } from 'node:zlib'
import { HOST, TOKEN } from './attacks.js'

export interface LegitimateRate {
  /** POSTs (or scrapes) answered 200 a second. */
  readonly storedPerSecond: number
  /** Answers other than 200, and requests that got none. */
  readonly failed: number
}

/** What a legitimate client sends: a plant as JSON, as gzip-coded JSON, or a scrape of the metrics listener. */
export type Legitimate = 'json' | 'gzip' | 'scrape'

// One request: its status, or 0 when it got no whole answer within `timeoutMs` of being sent. A
// plant numbered `id`, or a scrape.
const sendOnce = (agent: Agent | false, port: number, id: number, what: Legitimate, timeoutMs = 30_000): Promise<number> =>
  new Promise((resolve) => {
    const body = what === 'scrape' ? undefined : plantBody(id, what)
    const req = request(
      {
        host: HOST,
        port,
        localAddress: HOST,
        path: body === undefined ? '/metrics' : '/plants',
        method: body === undefined ? 'GET' : 'POST',
        agent,
        headers:
          body === undefined
            ? {}
            : {
                Authorization: `Bearer ${TOKEN}`,
                'Content-Type': 'application/json',
                'Content-Length': body.length,
                ...(what === 'gzip' ? { 'Content-Encoding': 'gzip' } : {}),
              },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('close', () => resolve(0))
      },
    )
    const patience = setTimeout(() => req.destroy(), timeoutMs)
    req.on('close', () => clearTimeout(patience))
    req.on('error', () => resolve(0))
    req.end(body)
  })

/** Sends plants numbered from `firstId` (or scrapes) for `ms`, one after the other, and counts those answered 200. */
export const legitimateRate = async (port: number, ms: number, firstId: number, what: Legitimate): Promise<LegitimateRate> => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const started = performance.now()
  let stored = 0
  let failed = 0
  for (let id = firstId; performance.now() - started < ms; id += 1) {
    const status = await sendOnce(agent, port, id, what)
    if (status === 200) stored += 1
    else failed += 1
  }
  agent.destroy()
  return { storedPerSecond: (stored * 1000) / (performance.now() - started), failed }
}

const plantBody = (id: number, coding: 'json' | 'gzip'): Buffer => {
  const json = Buffer.from(`{"id":${id},"name":"Fern","tag":"legitimate"}`)
  return coding === 'gzip' ? gzipSync(json) : json
}

/** A client's patience: an answer later than this is a request lost to it. */
export const PACED_PATIENCE_MS = 2000

/**
 * Sends `perSecond` plants (or scrapes) a second for `ms`, each on a fresh connection, whatever
 * the answers do, and counts those answered 200 within `PACED_PATIENCE_MS`.
 */
export const pacedRate = async (port: number, ms: number, perSecond: number, firstId: number, what: Legitimate): Promise<LegitimateRate> => {
  const started = performance.now()
  const sent: Promise<number>[] = []
  for (let i = 0; i < (ms * perSecond) / 1000; i += 1) {
    const due = started + (i * 1000) / perSecond
    const wait = due - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    sent.push(sendOnce(false, port, firstId + i, what, PACED_PATIENCE_MS))
  }
  const statuses = await Promise.all(sent)
  const stored = statuses.filter((status) => status === 200).length
  return { storedPerSecond: (stored * 1000) / ms, failed: statuses.length - stored }
}
