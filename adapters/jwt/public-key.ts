import { createPublicKey, type KeyObject } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import type { ReadonlyNonEmptyArray } from 'fp-ts/lib/ReadonlyNonEmptyArray.js'
import type { AsymmetricAlgorithm } from './algorithms.js'

const MINIMUM_RSA_BITS = 2048

/**
 * Reads a PEM public key (SPKI or PKCS#1) or X.509 certificate into a key object. A private key
 * is refused even though its public half could be derived: a verifier has no business holding
 * the signing key.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs'
 * import * as E from 'fp-ts/lib/Either.js'
 * import { algorithmsForKey, makeJwtAuthenticator, parsePublicKeyPem } from 'plant-store/adapters/jwt'
 *
 * const key = parsePublicKeyPem(readFileSync('issuer-public.pem', 'utf8'))
 * const algorithms = E.isRight(key) ? algorithmsForKey(key.right) : key
 * if (E.isRight(key) && E.isRight(algorithms)) {
 *   makeJwtAuthenticator({ keys: { _tag: 'PublicKey', key: key.right, algorithms: algorithms.right }, issuer: 'https://id.example.com/', audience: 'plant-store', clockToleranceSeconds: 30 })
 * }
 * ```
 */
export const parsePublicKeyPem = (pem: string): E.Either<string, KeyObject> => {
  if (pem.includes('PRIVATE KEY')) return E.left('a public key, not a private one')
  try {
    return E.right(createPublicKey(pem))
  } catch {
    return E.left('a PEM public key ("-----BEGIN PUBLIC KEY-----") or certificate')
  }
}

/**
 * The algorithms a public key can verify, the usual one first; a Left says why the key is not
 * usable (an RSA key under 2048 bits, or a key type JWS has no algorithm for).
 *
 * @example
 * ```ts
 * import { generateKeyPairSync } from 'node:crypto'
 * import { algorithmsForKey } from 'plant-store/adapters/jwt'
 *
 * const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
 * algorithmsForKey(publicKey) // right(['ES256'])
 * ```
 */
export const algorithmsForKey = (key: KeyObject): E.Either<string, ReadonlyNonEmptyArray<AsymmetricAlgorithm>> => {
  switch (key.asymmetricKeyType) {
    case 'rsa':
    case 'rsa-pss':
      return (key.asymmetricKeyDetails?.modulusLength ?? 0) < MINIMUM_RSA_BITS
        ? E.left(`an RSA key of ${MINIMUM_RSA_BITS} bits or more`)
        : E.right(key.asymmetricKeyType === 'rsa' ? ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'] : ['PS256', 'PS384', 'PS512'])
    case 'ec':
      return ecAlgorithm(key.asymmetricKeyDetails?.namedCurve)
    case 'ed25519':
      return E.right(['EdDSA', 'Ed25519'])
    default:
      return E.left(UNSUPPORTED)
  }
}

const UNSUPPORTED = 'an RSA, EC (P-256, P-384, P-521) or Ed25519 public key'

const ecAlgorithm = (curve: string | undefined): E.Either<string, ReadonlyNonEmptyArray<AsymmetricAlgorithm>> => {
  switch (curve) {
    case 'prime256v1':
      return E.right(['ES256'])
    case 'secp384r1':
      return E.right(['ES384'])
    case 'secp521r1':
      return E.right(['ES512'])
    default:
      return E.left(UNSUPPORTED)
  }
}
