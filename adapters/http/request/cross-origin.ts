import type { Representation } from '../context/answer.js'
import type { RequestHead } from '../context/request-head.js'

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
 * What CORS says of one request, for the request boundary to write: the headers its answer
 * carries, whatever that answer turns out to be (a 500 included, so the page can read it), and,
 * for a preflight, the answer itself, given in place of the route's.
 */
export interface CrossOriginAnswer {
  readonly headers: Readonly<Record<string, string>>
  readonly preflight?: Representation
}

/** CORS for one request, from its head, method and path. */
export type CrossOrigin = (head: Pick<RequestHead, 'origin' | 'accessControlRequestMethod'>, method: string, path: string) => CrossOriginAnswer

/**
 * CORS (the Fetch standard's protocol) for the origins of the policy. A preflight is answered
 * 204 before authentication (a browser sends it without credentials), and only on the paths that
 * take one (`preflightPaths`) for an OPTIONS naming the method it asks for: any other OPTIONS is a
 * method like any other, and an actual request. Every answer varies
 * on `Origin`; one to an allowed origin names it and the headers its page may read. Bearer tokens
 * are no cookies, so credentials are never allowed. What each origin is answered is made once,
 * here, not per request.
 */
export const crossOrigin = (policy: CrossOriginPolicy, methods: ReadonlyArray<string>, preflightPaths: ReadonlySet<string>): CrossOrigin => {
  const varyOnly: CrossOriginAnswer = { headers: { Vary: 'Origin' } }
  const answers = new Map(
    policy.origins.map((origin) => [
      origin,
      {
        actual: { headers: { Vary: 'Origin', 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': CROSS_ORIGIN_EXPOSED_HEADERS.join(',') } },
        preflight: {
          headers: varyOnly.headers,
          preflight: {
            _tag: 'Representation',
            status: 204,
            headers: {
              'Access-Control-Allow-Origin': origin,
              'Access-Control-Max-Age': String(CROSS_ORIGIN_MAX_AGE_SECONDS),
              'Access-Control-Allow-Methods': methods.join(','),
              'Access-Control-Allow-Headers': CROSS_ORIGIN_REQUEST_HEADERS.join(','),
            },
          },
        },
      } satisfies { readonly actual: CrossOriginAnswer; readonly preflight: CrossOriginAnswer },
    ]),
  )
  return ({ origin, accessControlRequestMethod }, method, path) => {
    // An empty Origin names no page, whatever the policy lists.
    const allowed = origin === undefined || origin === '' ? undefined : answers.get(origin)
    if (allowed === undefined) return varyOnly
    // A preflight is an OPTIONS, on a path that takes one, asking for a method; any other request
    // of an allowed origin is an actual request, an OPTIONS asking for nothing among them.
    const preflight = method === 'OPTIONS' && preflightPaths.has(path) && accessControlRequestMethod !== undefined && accessControlRequestMethod !== ''
    return preflight ? allowed.preflight : allowed.actual
  }
}
