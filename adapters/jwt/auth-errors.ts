import type { errors as JoseErrors } from 'jose'
import { authenticationUnavailable, unauthenticated, type AuthError } from '../../core/index.js'
import { MalformedKeyId } from './key-id.js'
import { KeySetUnavailable, UnknownSigningKey } from './remote-key-set.js'
import { errors } from './peers.js'

/**
 * The one place where a failure to verify a JWT becomes a domain error. What is wrong with the
 * token is `Unauthenticated`, with a detail fit for the client (never the token, never its
 * claims); a key the provider's set does not hold is `Unauthenticated` too (`UnknownKey`, with an
 * excerpt of the `kid` kept for the log); an unreachable key set is `AuthenticationUnavailable`,
 * keeping the cause for the log. A key the provider published that cannot be used (an RSA key
 * under 2048 bits, EC points off the curve: jose says so with a TypeError or a DOMException) is
 * the provider's fault too, when the keys come from its key set. Anything else is a defect on this side (a bug, a key the
 * configuration should have refused): it is thrown again, so the task rejects and the caller's
 * error boundary answers 500. Calling it a 503 would invite retries that cannot help.
 */
export const toAuthError = (failure: unknown, keysFromProvider = false): AuthError => {
  if (failure instanceof KeySetUnavailable) return authenticationUnavailable(failure.cause)
  if (failure instanceof UnknownSigningKey) return unauthenticated('UnknownKey', UNKNOWN_KEY, failure)
  if (failure instanceof errors.JOSEError) return unauthenticated('Invalid', describeRefusal(failure))
  if (keysFromProvider && isUnusableKey(failure)) return authenticationUnavailable(failure)
  throw failure
}

const UNKNOWN_KEY = 'The access token is signed with a key this service does not know.'

const isUnusableKey = (failure: unknown): boolean => failure instanceof TypeError || failure instanceof DOMException

const describeRefusal = (failure: JoseErrors.JOSEError): string => {
  if (failure instanceof errors.JWTExpired) return 'The access token has expired.'
  if (failure instanceof errors.JWTClaimValidationFailed) return describeClaimFailure(failure)
  if (failure instanceof errors.JWSSignatureVerificationFailed) return 'The access token signature does not verify.'
  if (failure instanceof errors.JOSEAlgNotAllowed) return 'The access token is signed with an algorithm this service does not accept.'
  if (failure instanceof errors.JWKSNoMatchingKey) return UNKNOWN_KEY
  if (failure instanceof MalformedKeyId) return 'The access token\'s "kid" header must be a non-empty string.'
  if (failure instanceof errors.JWSInvalid || failure instanceof errors.JWTInvalid) return 'The access token is not a well-formed JWT.'
  return 'The access token is not accepted.'
}

const describeClaimFailure = ({ claim, reason }: JoseErrors.JWTClaimValidationFailed): string => {
  if (reason === 'missing') return `The access token lacks the "${claim}" claim.`
  switch (claim) {
    case 'nbf':
      return 'The access token is not valid yet.'
    case 'iss':
      return 'The access token comes from an issuer this service does not trust.'
    case 'aud':
      return 'The access token is meant for another audience.'
    default:
      return `The access token's "${claim}" claim is not accepted.`
  }
}
