import type Koa from 'koa'
import { toErrorResponse, type Problem } from './error-response.js'

/** Answers with the Error document for a problem, and keeps the problem for the request log. */
export const sendProblem = (ctx: Koa.Context, problem: Problem): void => {
  const { status, headers, body } = toErrorResponse(problem)
  ctx.state['problem'] = problem
  ctx.set(headers)
  ctx.status = status
  ctx.body = body
}

/** Answers with a JSON document. */
export const sendJson = (ctx: Koa.Context, status: number, body: unknown): void => {
  ctx.status = status
  ctx.body = body
}
