import type * as E from 'fp-ts/lib/Either.js'
import * as TE from 'fp-ts/lib/TaskEither.js'
import { storageUnavailable, type AuthError, type Authenticator, type Identity, type PlantStore } from '../core/index.js'

// Stand-ins for the ports, for tests of code that uses them: a store whose storage is down, an
// authenticator with a fixed verdict. The in-memory store (`plant-store/adapters/in-memory`) is
// the working store; the contract suites say these behave as adapters must.

/**
 * A store whose storage is down: every call answers StorageUnavailable with the given cause.
 *
 * @example
 * ```ts
 * import { createHttpApp } from 'plant-store/adapters/http'
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 * import { unavailablePlantStore } from 'plant-store/testing'
 *
 * // Every POST /plants of this app answers 503.
 * const app = createHttpApp({ plantStore: unavailablePlantStore(new Error('down')), authenticator: makeStaticTokenAuthenticator(['s3cret-token']) })
 * ```
 */
export const unavailablePlantStore = (cause: unknown): PlantStore => ({
  insertUnlessExists: () => TE.left(storageUnavailable(cause)),
  checkReady: () => TE.left(storageUnavailable(cause)),
})

/**
 * An authenticator that answers the same verdict whatever token it is shown.
 *
 * @example
 * ```ts
 * import * as E from 'fp-ts/lib/Either.js'
 * import { insufficientScope } from 'plant-store/core'
 * import { authenticatorAnswering } from 'plant-store/testing'
 *
 * const anyone = authenticatorAnswering(E.right({ subject: 'tester', scopes: ['plants:write'] }))
 * const readOnly = authenticatorAnswering(E.left(insufficientScope('plants:write')))
 * ```
 */
export const authenticatorAnswering = (verdict: E.Either<AuthError, Identity>): Authenticator => ({
  verify: () => TE.fromEither(verdict),
})
