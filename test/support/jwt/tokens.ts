import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose'

export const ISSUER = 'https://idp.example.test/'
export const AUDIENCE = 'https://plant-store.example.test'
export const SUBJECT = 'user-42'

/** A signing key as an identity provider holds it, and the public half it publishes. */
export interface SigningKey {
  readonly alg: string
  readonly kid: string
  readonly privateKey: CryptoKey | Uint8Array
  readonly jwk: JWK
}

export const makeSigningKey = async (alg: 'RS256' | 'ES256' | 'EdDSA' | 'PS256', kid: string): Promise<SigningKey> => {
  const { privateKey, publicKey } = await generateKeyPair(alg)
  return { alg, kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } }
}

const now = (): number => Math.floor(Date.now() / 1000)

/** Seconds from now; negative for the past. */
export const inSeconds = (seconds: number): number => now() + seconds

/**
 * A token as a provider would issue it for this service; `claims` overrides or adds claims (a
 * value of `undefined` removes one), `header` overrides the protected header.
 */
export const issueToken = (
  key: SigningKey,
  claims: Readonly<Record<string, unknown>> = {},
  header: Readonly<Record<string, unknown>> = {},
): Promise<string> => {
  const payload = Object.fromEntries(
    Object.entries({
      iss: ISSUER,
      aud: AUDIENCE,
      sub: SUBJECT,
      iat: now(),
      exp: inSeconds(300),
      scope: 'plants:read plants:write',
      ...claims,
    }).filter(([, value]) => value !== undefined),
  )
  return new SignJWT(payload as JWTPayload)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header })
    .sign(key.privateKey)
}

/** The token with its payload replaced by other claims, keeping the original header and signature. */
export const withPayload = (token: string, claims: Readonly<Record<string, unknown>>): string => {
  const [header, , signature] = token.split('.')
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`
}

/** The token with one character in the middle of its signature changed. */
export const withTamperedSignature = (token: string): string => {
  const [header, payload, signature = ''] = token.split('.')
  const middle = Math.floor(signature.length / 2)
  const swapped = signature[middle] === 'A' ? 'B' : 'A'
  return `${header}.${payload}.${signature.slice(0, middle)}${swapped}${signature.slice(middle + 1)}`
}

/** The claims a token carries, read without checking anything. */
export const claimsOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
