import type { Tracer } from '@opentelemetry/api'
import type { Authenticator, BearerToken } from '../../core/index.js'
import { tracedTask } from './traced-task.js'
import { plantStoreTracer } from './tracer.js'

/**
 * The same authenticator, each token check in a span (`Authenticator.verify`), a child of the
 * request's: `plant_store.outcome` is `accepted` or the refusal's tag; only an identity provider
 * out of reach marks the span as an error (a refused token is the check doing its work). The
 * token is never put on the span. Verdicts and rejections pass through unchanged.
 *
 * @example
 * ```ts
 * import { traceAuthenticator } from 'plant-store/adapters/opentelemetry'
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 *
 * const authenticator = traceAuthenticator(makeStaticTokenAuthenticator(['s3cret-token']))
 * ```
 */
export const traceAuthenticator = (authenticator: Authenticator, tracer: Tracer = plantStoreTracer()): Authenticator => ({
  verify: (token: BearerToken) =>
    tracedTask(tracer, 'Authenticator.verify', authenticator.verify(token), (answer) =>
      answer._tag === 'Right'
        ? { attributes: { 'plant_store.outcome': 'accepted' }, failed: undefined }
        : {
            attributes: { 'plant_store.outcome': answer.left._tag },
            failed: answer.left._tag === 'AuthenticationUnavailable' ? answer.left._tag : undefined,
          },
    ),
})
