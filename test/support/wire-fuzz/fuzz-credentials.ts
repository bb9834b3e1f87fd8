// The bearer tokens a fuzzed client may hold, and the identity provider that makes some of them
// valid: the service under fuzz accepts a static token and JWTs signed by a key it fetches from a
// JWKS server on loopback, as an operator's service beside Auth0 or Keycloak would. Forged tokens
// are the ones that got past careless verifiers: another audience, a tampered signature or payload,
// a key nobody publishes, `alg: none`, an expired one, and text that is no JWT at all.
import { startJwksServer, type JwksServer } from '../jwt/jwks-server.js'
import { AUDIENCE, inSeconds, ISSUER, issueToken, makeSigningKey, withPayload, withTamperedSignature, claimsOf } from '../jwt/tokens.js'

/** The static token the service under fuzz accepts. */
export const FUZZ_TOKEN = 'wire-fuzz-token-0123456789abcdef'

/** Which token a request carries, by what it is; `none` sends no Authorization field. */
export type TokenKind =
  | 'static'
  | 'static-wrong'
  | 'none'
  | 'jwt'
  | 'jwt-expired'
  | 'jwt-other-audience'
  | 'jwt-tampered-signature'
  | 'jwt-tampered-payload'
  | 'jwt-unknown-key'
  | 'jwt-alg-none'
  | 'jwt-not-a-jwt'

/** Tokens the service accepts: a request with one of them reaches storage. */
export const VALID_TOKENS: ReadonlyArray<TokenKind> = ['static', 'jwt']

export const TOKEN_KINDS: ReadonlyArray<TokenKind> = [
  'static',
  'static-wrong',
  'none',
  'jwt',
  'jwt-expired',
  'jwt-other-audience',
  'jwt-tampered-signature',
  'jwt-tampered-payload',
  'jwt-unknown-key',
  'jwt-alg-none',
  'jwt-not-a-jwt',
]

export interface FuzzCredentials {
  /** The text of each token; undefined for `none`. */
  readonly tokenOf: (kind: TokenKind) => string | undefined
  /** What the service must be given to accept them. */
  readonly environment: Readonly<Record<string, string>>
  readonly stop: () => Promise<void>
}

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url')

// A fuzz run may last hours; its tokens must not expire under it.
const A_DAY_S = 24 * 3600

export const makeFuzzCredentials = async (): Promise<FuzzCredentials> => {
  const key = await makeSigningKey('RS256', 'wire-fuzz-key')
  const stranger = await makeSigningKey('RS256', 'wire-fuzz-stranger')
  const jwks: JwksServer = await startJwksServer([key.jwk])
  const valid = await issueToken(key, { exp: inSeconds(A_DAY_S) })
  const tokens: Readonly<Record<Exclude<TokenKind, 'none'>, string>> = {
    static: FUZZ_TOKEN,
    'static-wrong': `not-${FUZZ_TOKEN}`,
    jwt: valid,
    'jwt-expired': await issueToken(key, { iat: inSeconds(-7200), exp: inSeconds(-3600) }),
    'jwt-other-audience': await issueToken(key, { aud: 'https://another-service.example.test', exp: inSeconds(A_DAY_S) }),
    'jwt-tampered-signature': withTamperedSignature(valid),
    'jwt-tampered-payload': withPayload(valid, { ...claimsOf(valid), sub: 'admin' }),
    'jwt-unknown-key': await issueToken(stranger, { exp: inSeconds(A_DAY_S) }),
    'jwt-alg-none': `${base64url({ alg: 'none', typ: 'JWT' })}.${valid.split('.')[1] ?? ''}.`,
    'jwt-not-a-jwt': 'eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.c2ln',
  }
  return {
    tokenOf: (kind) => (kind === 'none' ? undefined : tokens[kind]),
    environment: {
      PLANT_STORE_TOKENS: FUZZ_TOKEN,
      JWT_JWKS_URL: jwks.url.href,
      JWT_ISSUER: ISSUER,
      JWT_AUDIENCE: AUDIENCE,
    },
    stop: () => jwks.stop(),
  }
}
