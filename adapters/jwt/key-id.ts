import type { JWSHeaderParameters } from 'jose'
import { errors } from './peers.js'

/** The token's `kid` header is there but is not a non-empty string (RFC 7515 section 4.1.4). */
export class MalformedKeyId extends errors.JWSInvalid {
  constructor() {
    super('the "kid" header parameter must be a non-empty string')
  }
}

/**
 * The key id a token names, or undefined when it names none. A `kid` that is not a non-empty
 * string can match no published key: it is the token's fault, refused before any key is looked for.
 */
export const keyIdOf = (header: JWSHeaderParameters): string | undefined => {
  const kid: unknown = header.kid
  if (kid === undefined) return undefined
  if (typeof kid !== 'string' || kid === '') throw new MalformedKeyId()
  return kid
}

const EXCERPT_CHARACTERS = 32

/**
 * A `kid` as a log line may show it: its first characters, printable ASCII only, and its length.
 * The client chose it, so neither its size nor its characters are left to the client.
 */
export const keyIdExcerpt = (kid: string | undefined): string => {
  if (kid === undefined) return 'no "kid"'
  const shown = kid.slice(0, EXCERPT_CHARACTERS).replace(/[^\x20-\x7E]/g, '?')
  return `"kid" ${JSON.stringify(shown)}${kid.length > EXCERPT_CHARACTERS ? '...' : ''} (${kid.length} characters)`
}
