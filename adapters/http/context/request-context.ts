import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type Koa from 'koa'
import { toErrorResponse, type Problem } from '../errors/error-response.js'
import type { RequestProblem } from '../errors/problems.js'
import type { RequestHead } from './request-head.js'

// The ground floor of the HTTP adapter: what one request is while it is answered (its state, its
// id, the route it took, what its server answered for it) and how an answer is sent. Every folder
// of the adapter imports it; it imports only the errors below it.

/** What the adapter learns of a request while answering it, read back for its log line and metrics. */
export interface RequestState {
  /** The request's head as it was read once, when the request was admitted. */
  head?: RequestHead
  /** The route the exact match of the operation answered; the router names its own (`routerPath`). */
  route?: string
  /** Who the request was made for, once the credential was accepted. */
  subject?: string
  /** Why the request was refused, when it was. */
  problem?: Problem
}

/**
 * The context of this adapter's middleware: Koa's, with the state above, the pattern of the
 * route that answered as @koa/router documents it, and what the server serving the app knows of
 * the request's connection, when it is one of this adapter's (see `serveAppOn`).
 */
export type HttpContext = Koa.ParameterizedContext<RequestState> & {
  readonly routerPath?: string
  readonly [SERVER_ANSWERS]?: ServerAnswers
}

/** A middleware of this adapter. */
export type HttpMiddleware = Koa.Middleware<RequestState>

/** The route pattern that answered a request, as its log line and its metrics name it. */
export const routeOf = (ctx: HttpContext): string => ctx.state.route ?? ctx.routerPath ?? 'unmatched'

/** Answers with the Error document for a problem, and keeps the problem for the request log. */
export const sendProblem = (ctx: HttpContext, problem: Problem): void => {
  const { status, wireHeaders, text } = toErrorResponse(problem)
  ctx.state.problem = problem
  ctx.response.status = status
  // The type is set before the body, or Koa would take a string body for text.
  ctx.response.set(wireHeaders)
  ctx.response.body = text
}

// What Koa would answer for an object body, set here once: given an object, Koa looks the type up
// by extension and serialises the body only when it responds, which costs more per response.
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/**
 * Answers with a JSON document, serialised here rather than by Koa after the middleware has
 * returned: a body that cannot be serialised then throws inside the error boundary. The type is
 * set before the body, or Koa would take a string body for text.
 */
export const sendJson = (ctx: HttpContext, status: number, body: unknown): void => {
  const { response } = ctx
  response.status = status
  response.set('Content-Type', JSON_CONTENT_TYPE)
  response.body = JSON.stringify(body)
}

/**
 * A request id a client or a proxy may choose: 1 to 128 characters of `A-Z a-z 0-9` and
 * `- . _ ~ : / + = @`. Anything else (spaces, quotes, control characters, a longer value) could
 * forge or break a log line, so it is replaced, not cleaned.
 */
export const REQUEST_ID_PATTERN = '^[A-Za-z0-9\\-._~:/+=@]{1,128}$'
const WELL_FORMED = new RegExp(REQUEST_ID_PATTERN)

/** The incoming `X-Request-Id` when it is well-formed, otherwise a fresh random UUID. */
export const requestIdFrom = (header: string | undefined): string =>
  header !== undefined && WELL_FORMED.test(header) ? header : randomUUID()

const REQUEST_ID = 'X-Request-Id'

/**
 * The id of a request, echoed in `X-Request-Id` on its answer: the one already stamped on its
 * response (by this adapter's server, for every listener), or else one stamped now (an app served
 * by a server of the embedder's own).
 */
export const stampRequestId = (req: IncomingMessage, res: ServerResponse): string => {
  const stamped = res.getHeader(REQUEST_ID)
  if (typeof stamped === 'string') return stamped
  const requestId = requestIdOf(req)
  res.setHeader(REQUEST_ID, requestId)
  return requestId
}

/** The id a request gets: its own `X-Request-Id` when well-formed, otherwise a fresh one. */
export const requestIdOf = (req: IncomingMessage): string => {
  const sent = req.headers['x-request-id']
  return requestIdFrom(typeof sent === 'string' ? sent : undefined)
}

/**
 * What a server answered by itself on a request's connection (a 408 for a body too slow), if it
 * did: the request shows up in the app as an aborted body, and the app logs the status the client
 * actually got.
 */
export type ServerAnswers = (req: IncomingMessage) => RequestProblem | undefined

const SERVER_ANSWERS = Symbol('server answers')

/**
 * Tells an app what a server that serves it answers on its connections, through the prototype of
 * its contexts as Koa documents it (`app.context`). An app served by several servers asks each.
 */
export const serveAppOn = (app: Koa, answers: ServerAnswers): void => {
  const context = app.context as { [SERVER_ANSWERS]?: ServerAnswers }
  const others = context[SERVER_ANSWERS]
  context[SERVER_ANSWERS] = others === undefined ? answers : (req) => answers(req) ?? others(req)
}

/** What the server serving the app answered by itself for this request, if it did. */
export const serverAnswered = (ctx: HttpContext): RequestProblem | undefined => ctx[SERVER_ANSWERS]?.(ctx.req)
