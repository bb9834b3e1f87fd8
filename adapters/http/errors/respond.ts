import type { HttpContext } from '../request/request-state.js'
import { toErrorResponse, type Problem } from './error-response.js'

/** Answers with the Error document for a problem, and keeps the problem for the request log. */
export const sendProblem = (ctx: HttpContext, problem: Problem): void => {
  const { status, headers, body } = toErrorResponse(problem)
  ctx.state.problem = problem
  ctx.response.set(headers)
  sendJson(ctx, status, body)
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
