/** JWS algorithms verified with a public key (RFC 7518, RFC 8037, RFC 9864). */
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const
export type AsymmetricAlgorithm = (typeof ASYMMETRIC_ALGORITHMS)[number]

/** JWS algorithms verified with a shared secret (RFC 7518 section 3.2). */
export const HMAC_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const
export type HmacAlgorithm = (typeof HMAC_ALGORITHMS)[number]

/**
 * The fewest bytes a secret may have for an HMAC algorithm: RFC 7518 section 3.2 asks for a key
 * at least as long as the hash output.
 *
 * @example
 * ```ts
 * import { minimumSecretBytes } from 'plant-store/adapters/jwt'
 *
 * minimumSecretBytes('HS256') // 32
 * ```
 */
export const minimumSecretBytes = (algorithm: HmacAlgorithm): number => Number(algorithm.slice(2)) / 8
