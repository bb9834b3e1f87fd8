import type { Authenticator, AuthError, BearerToken } from '../../core/index.js'
import type { PlantStoreMetrics } from './metrics.js'
import { timed } from './timed.js'

/**
 * The same authenticator, counting each token check and its latency by outcome: accepted,
 * refused, insufficient_scope, unavailable, or defect (a rejected task). Verdicts pass through.
 */
export const instrumentAuthenticator = (authenticator: Authenticator, { authentications }: PlantStoreMetrics): Authenticator => {
  const accepted = authentications.labels('accepted')
  const defect = authentications.labels('defect')
  const refusals: Readonly<Record<AuthError['_tag'], { readonly observe: (seconds: number) => void }>> = {
    Unauthenticated: authentications.labels('refused'),
    InsufficientScope: authentications.labels('insufficient_scope'),
    AuthenticationUnavailable: authentications.labels('unavailable'),
  }
  return {
    verify: (token: BearerToken) =>
      timed(authenticator.verify(token), (answer, seconds) =>
        (answer === undefined ? defect : answer._tag === 'Right' ? accepted : refusals[answer.left._tag]).observe(seconds),
      ),
  }
}
