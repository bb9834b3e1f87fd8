import type Koa from 'koa'
import { toErrorResponse, type Problem } from './error-response.js'

/** Answers with the Error document for a problem, and keeps the problem for the request log. */
export const sendProblem = (ctx: Koa.Context, problem: Problem): void => {
  const { status, headers, body } = toErrorResponse(problem)
  ctx.state['problem'] = problem
  ctx.set(headers)
  sendJson(ctx, status, body)
}

// What Koa would answer for an object body, set here once: given an object, Koa looks the type up
// by extension and serialises the body only when it responds, which costs more per response.
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/** Answers with a JSON document. */
export const sendJson = (ctx: Koa.Context, status: number, body: unknown): void => {
  ctx.status = status
  ctx.set('Content-Type', JSON_CONTENT_TYPE)
  ctx.body = JSON.stringify(body)
}
