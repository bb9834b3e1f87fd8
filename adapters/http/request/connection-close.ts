import { setImmediate as nextTurn } from 'node:timers/promises'
import type { HttpContext } from '../context/request-context.js'

/**
 * Ends the connection after the response, with `Connection: close`, when keeping it would cost
 * more than it saves:
 * - the request's body has not all arrived: it was refused before its body was read (401, 403,
 *   413, 415...), and keeping the connection would mean reading, for as long as the client takes,
 *   a body that will be thrown away;
 * - the service is draining before it stops: each kept-alive client learns from its last
 *   response that the connection ends, instead of finding it closed under its next request.
 * Called once the request has been answered. Most requests are complete by then: they get no
 * promise to wait for, and pay no extra turn of the event loop.
 */
export const closeConnectionWhenDone = (ctx: HttpContext, draining: () => boolean): Promise<void> | undefined => {
  if (draining()) {
    ctx.set('Connection', 'close')
    return undefined
  }
  return ctx.req.complete ? undefined : closeUnlessArrived(ctx)
}

// Node marks a request complete one turn of the event loop after parsing its last byte, so a
// body sent along with the headers but refused at once is given that turn before it counts as
// still arriving.
const closeUnlessArrived = async (ctx: HttpContext): Promise<void> => {
  await nextTurn()
  if (!ctx.req.complete) ctx.set('Connection', 'close')
}
