// eslint-disable-next-line no-restricted-syntax -- a turn of the event loop, in which Node marks a request complete, not a time (closeUnlessArrived)
import { setImmediate as nextTurn } from 'node:timers/promises'
import type Koa from 'koa'
import { JSON_CONTENT_TYPE, type Answer } from '../context/answer.js'
import { requestIdFrom, servedRequestOf } from '../context/request-context.js'
import { readRequestHead, type RequestHead } from '../context/request-head.js'
import type { AnswerRequest } from '../context/route.js'
import { describeCause, describeCauseBriefly } from '../errors/describe-cause.js'
import { untraced, type HttpObserver, type Logger, type RequestHeaders, type RequestSpan, type RequestTracer } from '../ports/telemetry.js'
import { traceParentFrom } from './trace-parent.js'
import type { CrossOrigin, CrossOriginAnswer } from './cross-origin.js'
import { refusesTheProtocol, unexpectedFailure } from '../errors/problems.js'
import type { Clock } from '../../../core/index.js'
import { toErrorResponse, type Problem } from '../errors/error-response.js'

export interface RequestBoundaryDeps {
  readonly log: Logger
  /** Told of each finished request; none is told when absent, at no cost per request. */
  readonly observer: HttpObserver | undefined
  /** Opens each request's span; none is opened when absent, at no cost per request. */
  readonly tracer: RequestTracer | undefined
  /** Whether the service is draining before it stops: every answer then closes its connection. */
  readonly draining: () => boolean
  /** Answers a request: its admission and its route. */
  readonly answer: AnswerRequest
  /** CORS, whose headers every answer carries and which answers a preflight itself; none when absent, at no cost per request. */
  readonly crossOrigin?: CrossOrigin | undefined
  /** The route a request took, for the line of one whose answer was lost to a throw. */
  readonly routeOf: (ctx: Koa.Context) => string
  /** Where a request's duration, from its arrival here to its log line, is read. */
  readonly clock: Clock
}

/**
 * The app's one middleware, and the one error boundary: it gives the request its id (echoed in
 * `X-Request-Id` on every answer), asks for the request's answer, writes it to Koa once, turns
 * anything thrown on the way into a 500 Error document with a generic message, decides whether
 * the answer keeps its connection, then writes the one log line of the request and reports it to
 * the observer, all from that one answer.
 * The request runs in its span, which the tracer opens from the request's header fields, and the
 * span's trace id is on its log line; with no span recording, the line carries the trace id of a
 * valid W3C `traceparent`, when the request sent one. Logging, observing and ending the span run
 * inside their own guard after the answer is settled: none can change or fail it. A cause reaches
 * the log once, on that line.
 */
export const requestBoundary =
  ({ log, observer, tracer, draining, answer: answerRequest, crossOrigin, routeOf, clock }: RequestBoundaryDeps): Koa.Middleware =>
  async (ctx) => {
    const started = clock.now()
    const { req } = ctx
    // The head and id its server gave it, when it is one of this adapter's; else read and given here.
    const served = servedRequestOf(req)
    const head = served === undefined ? readRequestHead(req) : served.head
    const requestId = served === undefined ? stampRequestId(ctx, head) : served.requestId
    const span = tracer === undefined ? untraced : startSpan(tracer, log, requestId, req.method ?? '', req.headers)
    let answer: Answer | undefined
    let status: number
    let cors: CrossOriginAnswer | undefined
    try {
      cors = crossOrigin === undefined ? undefined : crossOrigin(head, ctx.method, ctx.path)
      if (cors?.preflight !== undefined) answer = cors.preflight
      else if (span === untraced) answer = await answerRequest(ctx, head, served)
      else answer = await answerInSpan(span, () => answerRequest(ctx, head, served))
      status = writeAnswer(ctx, answer, cors)
    } catch (error) {
      answer = defectOf(error, answer, routeOf(ctx))
      status = answerDefect(ctx, requestId, answer, cors)
    }
    const closing = closeConnectionWhenDone(ctx, answer, draining)
    if (closing !== undefined) await closing
    const ms = clock.now() - started
    const route = answer?.route ?? 'unmatched'
    if (observer !== undefined) {
      try {
        observer.requestFinished(route, methodLabel(req.method ?? ''), status, ms / 1000)
      } catch (error) {
        logSafely(log, 'error', 'request observer failed', { requestId, cause: describeCause(error) })
      }
    }
    if (span !== untraced) {
      try {
        span.finished(route, status, isFailureStatus(status))
      } catch (error) {
        logSafely(log, 'error', 'request tracer failed', { requestId, cause: describeCause(error) })
      }
    }
    // The adapter's own reading of a traceparent, for the line of a request no span records.
    const traceId = span.traceId ?? (head.traceParent === undefined ? undefined : traceParentFrom(head.traceParent)?.traceId)
    writeRequestLine(log, ctx.method, requestId, route, status, ms, traceId, span.spanId, answer)
  }

const REQUEST_ID = 'X-Request-Id'

// An app served by a server of an embedder's own: the request's id is given and stamped here.
const stampRequestId = (ctx: Koa.Context, head: RequestHead): string => {
  const requestId = requestIdFrom(head.sentRequestId)
  ctx.set(REQUEST_ID, requestId)
  return requestId
}

/**
 * Writes an answer to Koa's response, once: its status, the headers CORS gives every answer, its
 * own headers, then its body (the type is set before the body, or Koa would take a string body
 * for text). Answers with the status written.
 */
const writeAnswer = (ctx: Koa.Context, answer: Answer, cors: CrossOriginAnswer | undefined): number => {
  const { response } = ctx
  if (cors !== undefined) response.set(cors.headers)
  switch (answer._tag) {
    case 'Plant':
      response.status = 200
      response.set('Content-Type', JSON_CONTENT_TYPE)
      response.body = JSON.stringify(answer.plant)
      return 200
    case 'Problem': {
      const { status, wireHeaders, text } = toErrorResponse(answer.problem)
      response.status = status
      response.set(wireHeaders)
      response.body = text
      return status
    }
    case 'Representation':
      response.status = answer.status
      response.set(answer.headers)
      if (answer.vary !== undefined) response.vary(answer.vary)
      if (answer.body !== undefined) response.body = answer.body
      return answer.status
  }
}

// A tracer whose span never runs the request leaves no answer to write: that is its defect.
const answerInSpan = async (span: RequestSpan, answerRequest: () => Answer | Promise<Answer>): Promise<Answer> => {
  let answer: Answer | undefined
  await span.run(async () => {
    answer = await answerRequest()
  })
  if (answer === undefined) throw new Error('the request tracer did not run the request')
  return answer
}

// A tracer that throws leaves the request untraced, and answered as it would have been.
const startSpan = (
  tracer: RequestTracer,
  log: Logger,
  requestId: string,
  method: string,
  headers: RequestHeaders,
): RequestSpan => {
  try {
    return tracer.requestStarted(method, headers)
  } catch (error) {
    logSafely(log, 'error', 'request tracer failed', { requestId, cause: describeCause(error) })
    return untraced
  }
}

// A throw answers 500 for the route the request took, and who it was made for when that was known:
// the answer it replaces, if it was made but could not be written, says so.
const defectOf = (error: unknown, lost: Answer | undefined, routeTaken: string): Answer => {
  const { route = routeTaken, subject } = lost ?? {}
  return subject === undefined
    ? { _tag: 'Problem', problem: unexpectedFailure(error), route }
    : { _tag: 'Problem', problem: unexpectedFailure(error), route, subject }
}

// Headers written before the throw (a WWW-Authenticate, say) belong to an answer that is not sent;
// the CORS headers, which say who may read whatever answer goes out, are written with this 500.
const answerDefect = (ctx: Koa.Context, requestId: string, defect: Answer, cors: CrossOriginAnswer | undefined): number => {
  if (ctx.headerSent) return ctx.status
  // Except Connection: a close decided for the connection (a body left unread, a drain) stands.
  for (const name of ctx.res.getHeaderNames()) if (name !== 'connection') ctx.res.removeHeader(name)
  ctx.set(REQUEST_ID, requestId)
  return writeAnswer(ctx, defect, cors)
}

const writeRequestLine = (
  log: Logger,
  method: string,
  requestId: string,
  route: string,
  status: number,
  ms: number,
  traceId: string | undefined,
  spanId: string | undefined,
  answer: Answer | undefined,
): void => {
  const fields: Record<string, unknown> = {
    requestId,
    method,
    route,
    status,
    ms: Math.round(ms * 10) / 10,
  }
  if (traceId !== undefined) fields['traceId'] = traceId
  if (spanId !== undefined) fields['spanId'] = spanId
  if (answer?.subject !== undefined) fields['subject'] = answer.subject
  const problem = answer?._tag === 'Problem' ? answer.problem : undefined
  const line = requestLogLine(problem, status)
  if (line.cause === 'brief') fields['cause'] = describeCauseBriefly(causeOf(problem))
  if (line.cause === 'whole') fields['cause'] = describeCause(causeOf(problem))
  logSafely(log, line.level, line.message, fields)
}

/** How the request log tells of an answer: its level, its words, and how much of the cause it shows. */
interface RequestLogLine {
  readonly level: 'info' | 'warn' | 'error'
  readonly message: string
  /** `brief`: the cause's message; `whole`: its whole description, stack included. */
  readonly cause?: 'brief' | 'whole'
}

/**
 * The one place where an answer's severity is decided, beside the one that gives it its status. An
 * outage being reported (503) is expected while it lasts: a warning with the cause's message, not
 * a stack per request. Storage refusing the service's configuration is an error an operator must
 * correct, named with its cause. A store that is full (507) is the bound doing its work. A token
 * signed with a key nobody publishes is a refusal (401) like any other, named apart so that a
 * forgery or a missed rotation can be told from a bad token. A 501 refuses what the client sent,
 * as a 4xx does (`isFailureStatus`). Any other 5xx is a defect worth its
 * whole description.
 */
const requestLogLine = (problem: Problem | undefined, status: number): RequestLogLine => {
  switch (problem?._tag) {
    case 'ShuttingDown':
      return { level: 'info', message: 'request refused: shutting down' }
    case 'DecodersBusy':
      return { level: 'warn', message: 'request refused: compressed bodies waiting too long for a decoder' }
    case 'DeadlinePassed':
      return { level: 'warn', message: 'request refused: its body was not in by its deadline' }
    case 'StorageUnavailable':
      return problem.configurationFault === undefined
        ? { level: 'warn', message: 'request refused: dependency unavailable', cause: 'brief' }
        : { level: 'error', message: `request refused: storage configuration fault: ${problem.configurationFault}`, cause: 'brief' }
    case 'AuthenticationUnavailable':
      return { level: 'warn', message: 'request refused: dependency unavailable', cause: 'brief' }
    case 'Unauthenticated':
      // Said briefly: the cause names only an excerpt of what the client sent, never all of it.
      return problem.reason === 'UnknownKey'
        ? { level: 'info', message: 'request refused: unknown signing key', cause: 'brief' }
        : { level: 'info', message: 'request' }
    case 'StorageFull':
      return { level: 'warn', message: 'request refused: storage full' }
    default:
      return isFailureStatus(status) ? { level: 'error', message: 'request failed', cause: 'whole' } : { level: 'info', message: 'request' }
  }
}

/**
 * Whether an answer's status says the service or a dependency failed: a 5xx, except 501 Not
 * Implemented, which refuses what the client sent (a method or a transfer coding the service does
 * not implement, RFC 9110 section 15.6.2) as a 4xx refusal does. The request log's level and the
 * span's error status are both decided by this one rule, here; the operator's 5xx alert follows it.
 */
const isFailureStatus = (status: number): boolean => status >= 500 && status !== 501

const causeOf = (problem: Problem | undefined): unknown => (problem !== undefined && 'cause' in problem ? problem.cause : undefined)

// A logger that throws loses its line; the request keeps its answer. One plain line says so, in
// case the failure was in the fields and not in the logger.
const logSafely = (log: Logger, level: keyof Logger, message: string, fields: Readonly<Record<string, unknown>>): void => {
  try {
    log[level](message, fields)
  } catch (error) {
    try {
      log.error('log line lost: the logger failed', { requestId: fields['requestId'], cause: describeCause(error) })
    } catch {
      // Nowhere left to report to.
    }
  }
}

const STANDARD_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT'])

const methodLabel = (method: string): string => (STANDARD_METHODS.has(method) ? method : 'OTHER')

/**
 * Ends the connection after the response, with `Connection: close`, when keeping it would cost
 * more than it saves:
 * - the request's body has not all arrived: it was refused before its body was read (401, 403,
 *   413, 415...), and keeping the connection would mean reading, for as long as the client takes,
 *   a body that will be thrown away;
 * - the request was refused at the protocol level (its framing or head: `refusesTheProtocol`);
 * - the service is draining before it stops: each kept-alive client learns from its last
 *   response that the connection ends, instead of finding it closed under its next request.
 * Called once the request has been answered. A plant is answered only once its body was read
 * whole, and most other requests are complete by then too: they get no promise to wait for, and
 * pay no extra turn of the event loop.
 */
const closeConnectionWhenDone = (ctx: Koa.Context, answer: Answer | undefined, draining: () => boolean): Promise<void> | undefined => {
  if (draining()) {
    ctx.set('Connection', 'close')
    return undefined
  }
  if (answer?._tag === 'Problem' && refusesTheProtocol(answer.problem)) {
    ctx.set('Connection', 'close')
    return undefined
  }
  return answer?._tag === 'Plant' || ctx.req.complete ? undefined : closeUnlessArrived(ctx)
}

// Node marks a request complete one turn of the event loop after parsing its last byte, so a
// body sent along with the headers but refused at once is given that turn before it counts as
// still arriving.
const closeUnlessArrived = async (ctx: Koa.Context): Promise<void> => {
  await nextTurn()
  if (!ctx.req.complete) ctx.set('Connection', 'close')
}
