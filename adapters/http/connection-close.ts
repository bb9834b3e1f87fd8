import { setImmediate as nextTurn } from 'node:timers/promises'
import type Koa from 'koa'

/**
 * Ends the connection after the response, with `Connection: close`, when keeping it would cost
 * more than it saves:
 * - the request's body has not all arrived: it was refused before its body was read (401, 403,
 *   413, 415...), and keeping the connection would mean reading, for as long as the client takes,
 *   a body that will be thrown away;
 * - the service is draining before it stops: each kept-alive client learns from its last
 *   response that the connection ends, instead of finding it closed under its next request.
 */
export const closeConnectionWhenDone =
  (draining: () => boolean): Koa.Middleware =>
  async (ctx, next) => {
    try {
      await next()
    } finally {
      // Most requests are complete by now: they pay no extra turn of the event loop.
      if (draining() || (!ctx.req.complete && !(await hasArrived(ctx.req)))) ctx.set('Connection', 'close')
    }
  }

// Node marks a request complete one turn of the event loop after parsing its last byte, so a
// body sent along with the headers but refused at once is given that turn before it counts as
// still arriving.
const hasArrived = async (req: Koa.Context['req']): Promise<boolean> => {
  await nextTurn()
  return req.complete
}
