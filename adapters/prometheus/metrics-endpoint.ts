import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Registry } from 'prom-client'

/**
 * A request handler for a listener of its own (never the public one): `GET /metrics` answers the
 * registry in Prometheus's text format; anything else is 404.
 */
export const metricsRequestHandler =
  (registry: Registry) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '').split('?')[0]
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics are at GET /metrics.\n')
      return
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics could not be collected.\n'),
    )
  }
