import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Registry } from 'prom-client'
import { errorAnswer } from '../http-api/index.js'

/**
 * A request handler for a listener of its own (never the public one): `GET /metrics` answers the
 * registry in Prometheus's text format; anything else is 404, and a registry that cannot be read
 * 500, each as the API's Error document `{"error": status, "message": ...}`.
 */
export const metricsRequestHandler =
  (registry: Registry) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '').split('?')[0]
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      answerError(res, 404, 'Metrics are at GET /metrics.')
      return
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
      () => answerError(res, 500, 'Metrics could not be collected.'),
    )
  }

const answerError = (res: ServerResponse, status: 404 | 500, message: string): void => {
  const { wireHeaders, text } = errorAnswer(status, message)
  res.writeHead(status, wireHeaders).end(text)
}
