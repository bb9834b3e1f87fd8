/**
 * Where the JWT adapter reports each fetch of a remote key set, for metrics: `ok` for a 200, or
 * `failed` (another status, a network failure, a timeout) with how long it took. A fetch the key
 * set's rule does not let start (a cool-down, the back-off after a failure, the fetch rate) is not
 * a fetch.
 */
export interface KeySetObserver {
  readonly keySetFetched: (outcome: 'ok' | 'failed', seconds: number) => void
}

export const ignoreKeySetFetches: KeySetObserver = { keySetFetched: () => {} }
