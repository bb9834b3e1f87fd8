/**
 * Where the HTTP adapter reports each finished request, for metrics. `route` is the route
 * pattern (or `unmatched`), never the raw path, and `method` one of the standard methods or
 * `OTHER`, so the values stay a small bounded set. It is called once per request, on the hot
 * path: keep it cheap; if it throws, the request is answered as it would have been.
 */
export interface HttpObserver {
  readonly requestFinished: (route: string, method: string, status: number, seconds: number) => void
}

export const ignoreRequests: HttpObserver = { requestFinished: () => {} }
