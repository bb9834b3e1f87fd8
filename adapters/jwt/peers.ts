import type * as Jose from 'jose'
import { loadPeers } from '../../wire/peers/index.js'

// jose's values this adapter uses, loaded while this module is evaluated (wire/peers/ says why not
// by static imports): the very module an embedder's own `import 'jose'` loads, so its error
// classes are the ones jose throws.
const { jose } = loadPeers<{ readonly jose: typeof Jose }>('plant-store/adapters/jwt')

export const { base64url, createLocalJWKSet, errors, jwtVerify } = jose
