import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Registry } from 'prom-client'
import type { Clock } from '../../core/index.js'
import { errorAnswer, systemClock } from '../../wire/index.js'

// Rendering the registry collects and formats every default process metric afresh, many times
// the work of any other answer, while Prometheus scrapes every 15 s or so: one text serves every
// scrape for this long, so a client looping on the listener costs a copy, not a render.
const RENDERED_MAX_AGE_MS = 1_000

/**
 * A request handler for a listener of its own (never the public one): `GET /metrics` answers the
 * registry in Prometheus's text format; anything else is 404, and a registry that cannot be read
 * 500, each as the API's Error document `{"error": status, "message": ...}`. The text is rendered
 * at most once a second, and scrapes that come while it renders share it: a scrape's values are
 * at most a second old (a second on `clock`, `systemClock` when absent).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { makePlantStoreMetrics, metricsRequestHandler } from 'plant-store/adapters/prometheus'
 *
 * const metrics = makePlantStoreMetrics()
 * createServer(metricsRequestHandler(metrics.registry)).listen(9464, '127.0.0.1')
 * ```
 */
export const metricsRequestHandler = (registry: Registry, { clock = systemClock }: { readonly clock?: Clock } = {}) => {
  let rendered: { readonly text: Promise<string>; readonly at: number } | undefined
  const render = (): Promise<string> => {
    const now = clock.now()
    if (rendered === undefined || now - rendered.at >= RENDERED_MAX_AGE_MS) {
      const text = registry.metrics()
      rendered = { text, at: now }
      // A failed render is not kept: the next scrape tries again.
      text.catch(() => {
        if (rendered?.text === text) rendered = undefined
      })
    }
    return rendered.text
  }
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '').split('?')[0]
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      answerError(res, 404, 'Metrics are at GET /metrics.')
      return
    }
    render().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
      () => answerError(res, 500, 'Metrics could not be collected.'),
    )
  }
}

const answerError = (res: ServerResponse, status: 404 | 500, message: string): void => {
  const { wireHeaders, text } = errorAnswer(status, message)
  res.writeHead(status, wireHeaders).end(text)
}
