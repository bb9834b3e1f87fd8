import type Koa from 'koa'
import { toErrorResponse, type Problem } from './error-response.js'

/** Answers with the Error document for a problem, and keeps the problem for the request log. */
export const sendProblem = (ctx: Koa.Context, problem: Problem): void => {
  const { status, headers, body } = toErrorResponse(problem)
  ctx.state['problem'] = problem
  ctx.set(headers)
  sendJson(ctx, status, body)
}

/**
 * Answers with a JSON document, serialised here rather than by Koa after the middleware has
 * returned: a body that cannot be serialised then throws inside the error boundary.
 */
export const sendJson = (ctx: Koa.Context, status: number, body: unknown): void => {
  const json = JSON.stringify(body)
  ctx.status = status
  ctx.type = 'application/json'
  ctx.body = json
}
