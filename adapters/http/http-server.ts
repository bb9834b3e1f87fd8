import { createServer, type Server } from 'node:http'
import type Koa from 'koa'
import { answerClientError } from './client-error.js'

/**
 * A Node HTTP server for the app, not yet listening. Requests Node's parser refuses are answered
 * with Error documents too; a missing Host header is left for the app to refuse the same way
 * (Node's own check would answer a bare 400).
 */
export const createHttpServer = (app: Koa): Server => {
  const handle = app.callback()
  const server = createServer({ requireHostHeader: false }, (req, res) => void handle(req, res))
  server.on('clientError', answerClientError)
  return server
}
