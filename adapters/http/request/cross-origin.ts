import type { Answer } from '../context/answer.js'
import type { AnswerRequest } from '../context/route.js'
import { cors } from '../peers/peers.js'

/** Which other origins' browser pages may call the API, and what their scripts may read. */
export interface CrossOriginPolicy {
  /**
   * Exact origins (`https://app.example.com`, scheme, host and port as a browser sends them in
   * `Origin`); a request from any other origin gets no CORS header, so its browser refuses it.
   */
  readonly origins: ReadonlyArray<string>
}

// What a page may send and read: the operation's own headers, and the answers' headers a client
// acts on (the request id to report, the challenge of a 401 or 403, when to retry a 503).
export const CROSS_ORIGIN_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'X-Request-Id'] as const
export const CROSS_ORIGIN_EXPOSED_HEADERS = ['X-Request-Id', 'WWW-Authenticate', 'Retry-After'] as const
export const CROSS_ORIGIN_MAX_AGE_SECONDS = 600

/**
 * CORS by @koa/cors for the origins of the policy, around `answer`. A preflight is answered
 * before authentication (a browser sends it without credentials), on Koa's response and with no
 * answer of a route, and only on the paths that take one (`preflightPaths`): elsewhere OPTIONS is
 * a method like any other. Bearer tokens are no cookies, so credentials are never allowed.
 */
export const crossOrigin = (
  policy: CrossOriginPolicy,
  methods: ReadonlyArray<string>,
  preflightPaths: ReadonlySet<string>,
  answer: AnswerRequest,
): AnswerRequest => {
  const allowed = new Set(policy.origins)
  const headers = cors({
    origin: (ctx) => {
      const origin = ctx.get('Origin')
      return allowed.has(origin) ? origin : ''
    },
    allowMethods: [...methods],
    allowHeaders: [...CROSS_ORIGIN_REQUEST_HEADERS],
    exposeHeaders: [...CROSS_ORIGIN_EXPOSED_HEADERS],
    maxAge: CROSS_ORIGIN_MAX_AGE_SECONDS,
    credentials: false,
  })
  return async (ctx, head, served) => {
    if (ctx.method === 'OPTIONS' && !preflightPaths.has(ctx.path)) return answer(ctx, head, served)
    // @koa/cors sets its headers, then calls on the answer, unless it answered the preflight.
    let answered: Answer | undefined
    await headers(ctx, async () => {
      answered = await answer(ctx, head, served)
    })
    return answered
  }
}
