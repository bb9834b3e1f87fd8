import type Koa from 'koa'
import type { Problem } from '../errors/error-response.js'

/** What the adapter learns of a request while answering it, read back for its log line and metrics. */
export interface RequestState {
  /** The route the exact match of the operation answered; the router names its own (`routerPath`). */
  route?: string
  /** Who the request was made for, once the credential was accepted. */
  subject?: string
  /** Why the request was refused, when it was. */
  problem?: Problem
}

/**
 * The context of this adapter's middleware: Koa's, with the state above, and the pattern of the
 * route that answered as @koa/router documents it.
 */
export type HttpContext = Koa.ParameterizedContext<RequestState> & { readonly routerPath?: string }

/** A middleware of this adapter. */
export type HttpMiddleware = Koa.Middleware<RequestState>
