import type { Authenticator, AuthError, BearerToken } from '../../core/index.js'
import type { PlantStoreMetrics } from './metrics.js'
import { counted } from './timed.js'

/**
 * The same authenticator, counting each token check by outcome: accepted,
 * refused, insufficient_scope, unavailable, or defect (a rejected task). Verdicts pass through.
 */
export const instrumentAuthenticator = (authenticator: Authenticator, { authentications }: PlantStoreMetrics): Authenticator => {
  const accepted = authentications.labels('accepted')
  const defect = authentications.labels('defect')
  const refusals: Readonly<Record<AuthError['_tag'], { readonly inc: () => void }>> = {
    Unauthenticated: authentications.labels('refused'),
    InsufficientScope: authentications.labels('insufficient_scope'),
    AuthenticationUnavailable: authentications.labels('unavailable'),
  }
  return {
    verify: (token: BearerToken) =>
      counted(authenticator.verify(token), (answer) =>
        (answer === undefined ? defect : answer._tag === 'Right' ? accepted : refusals[answer.left._tag]).inc(),
      ),
  }
}
