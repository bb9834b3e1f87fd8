import type Koa from 'koa'
import { expectationFailed } from './request-problems.js'
import { sendProblem } from './respond.js'

/**
 * Refuses a request whose `Expect` header asks for anything but `100-continue` (RFC 9110 section
 * 10.1.1): 417, without reading its body.
 */
export const refuseUnknownExpectation = (): Koa.Middleware => async (ctx, next) => {
  const expectation = ctx.get('Expect')
  if (expectation !== '' && expectation.trim().toLowerCase() !== '100-continue') {
    sendProblem(ctx, expectationFailed)
    return
  }
  await next()
}
