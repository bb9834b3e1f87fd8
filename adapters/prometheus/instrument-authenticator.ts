import type { Authenticator, AuthError, BearerToken } from '../../core/index.js'
import type { PlantStoreMetrics } from './metrics.js'
import { counted } from './timed.js'

/**
 * The same authenticator, counting each token check by outcome: accepted, refused, unknown_key
 * (refused: signed with a key the authority does not hold), insufficient_scope, unavailable, or
 * defect (a rejected task). Verdicts pass through.
 *
 * @example
 * ```ts
 * import { instrumentAuthenticator, makePlantStoreMetrics } from 'plant-store/adapters/prometheus'
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 *
 * const authenticator = instrumentAuthenticator(makeStaticTokenAuthenticator(['s3cret-token']), makePlantStoreMetrics())
 * ```
 */
export const instrumentAuthenticator = (authenticator: Authenticator, { authentications }: PlantStoreMetrics): Authenticator => {
  const accepted = authentications.labels('accepted')
  const defect = authentications.labels('defect')
  const unknownKey = authentications.labels('unknown_key')
  const refusals: Readonly<Record<AuthError['_tag'], { readonly inc: () => void }>> = {
    Unauthenticated: authentications.labels('refused'),
    InsufficientScope: authentications.labels('insufficient_scope'),
    AuthenticationUnavailable: authentications.labels('unavailable'),
  }
  const refusalCounter = (error: AuthError) =>
    error._tag === 'Unauthenticated' && error.reason === 'UnknownKey' ? unknownKey : refusals[error._tag]
  return {
    verify: (token: BearerToken) =>
      counted(authenticator.verify(token), (answer) =>
        (answer === undefined ? defect : answer._tag === 'Right' ? accepted : refusalCounter(answer.left)).inc(),
      ),
  }
}
