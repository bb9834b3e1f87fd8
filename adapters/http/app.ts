import type { Server } from 'node:http'
import type Koa from 'koa'
import { KoaApplication } from './peers/peers.js'
import { JSON_CONTENT_TYPE } from './context/answer.js'
import type { AnswerRequest, Route, RouteRequest } from './context/route.js'
import type { Authenticator, Clock, PlantStore } from '../../core/index.js'
import { docsAssets } from './routes/docs-page.js'
import { createHttpServer, DEFAULT_HTTP_SERVER_LIMITS } from './server/http-server.js'
import { createPlantRoute } from './routes/create-plant.js'
import { CREATE_PLANT, MAX_TIMER_MS, systemClock, wholeNumberOption } from '../../wire/index.js'
import { DEFAULT_JSON_LIMITS, type JsonLimits } from '../../wire/exact-json/index.js'
import { makeJsonBodyReader } from './body/json-body.js'
import { makeDecodeQueue } from './body/decode-queue.js'
import { crossOrigin, type CrossOriginPolicy } from './request/cross-origin.js'
import { type HttpObserver, type Logger, type RequestTracer, warningsToConsole } from './ports/telemetry.js'
import { openApiDocument } from './openapi/document.js'
import { openApiText } from './openapi/document-text.js'
import { healthz, readyz } from './routes/probes.js'
import { requestBoundary } from './request/boundary.js'
import { represent, serveRepresentations } from './routes/fixed-representations.js'
import { dispatch, isLiteralBasePath, type Dispatch, type PathRoute } from './routes/dispatch.js'

/** An orchestrator probes every few seconds; one storage probe a second keeps its view fresh. */
export const DEFAULT_READINESS_MAX_AGE_MS = 1000

/** The service's own `BODY_LIMIT` default, so an embedded app refuses what the service refuses. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024

export interface HttpAppDeps {
  readonly plantStore: PlantStore
  readonly authenticator: Authenticator
  /**
   * Where the request lines go. `warningsToConsole` when absent: warnings and errors (a 500's
   * cause, storage out of reach) on the console, the line of every answered request nowhere.
   */
  readonly log?: Logger
  /** Told of every finished request, for metrics; by default no one is. */
  readonly observer?: HttpObserver
  /**
   * Opens a span for each request (the OpenTelemetry adapter's `openTelemetryRequestTracer`, say);
   * by default none is, and a `traceparent`'s trace id still reaches the request's log line.
   */
  readonly tracer?: RequestTracer
  /** Path prefix standing for `{base_url}`'s path: '' or '/something' without a trailing slash; '' when absent. */
  readonly basePath?: string
  /** Largest request body accepted, in bytes; `DEFAULT_BODY_LIMIT_BYTES` (64 KiB) when absent. */
  readonly bodyLimitBytes?: number
  /**
   * The longest a `POST /plants` may take from its headers to its answer, in milliseconds: every
   * stage after the headers is held to it. A body still arriving or decoding when it passes is
   * given up and answered 503, and storage is given what is left (`InsertOptions.withinMs`). No
   * bound of the app's own when absent (a decode is still given up after 5 s).
   */
  readonly answerWithinMs?: number
  /** Longest number and deepest nesting a JSON body may hold; `DEFAULT_JSON_LIMITS` when absent. */
  readonly jsonLimits?: JsonLimits
  /**
   * Whether the service is draining before it stops: `/readyz` then answers 503 and every
   * response closes its connection. A signal aborted when draining begins, or a function asked
   * on each request; never, when absent.
   */
  readonly draining?: AbortSignal | (() => boolean)
  /**
   * How long one answer of storage's `checkReady` serves `/readyz`, in milliseconds: storage is
   * asked at most once per period whatever the traffic. `DEFAULT_READINESS_MAX_AGE_MS` when absent.
   */
  readonly readinessMaxAgeMs?: number
  /** Whether `/docs` serves the API reference page; it does unless `false`. */
  readonly docsPage?: boolean
  /** Browser pages of which other origins may call the API (CORS); none, when absent. */
  readonly crossOrigin?: CrossOriginPolicy
  /**
   * Where every deadline, cache age and duration of the app is read and timed (`answerWithinMs`,
   * the body's deadline, `readinessMaxAgeMs`, each request's `ms`); `systemClock` when absent. A
   * test passes a virtual clock to drive them without waiting.
   */
  readonly clock?: Clock
}

/**
 * Builds the Koa app of the service from its two ports, `plantStore` and `authenticator`; every
 * other option has a default. It does not listen: the caller serves it, through
 * `createHttpServer` or its own server; Koa's `app.listen(...)` serves it through
 * `createHttpServer` with the default limits. A `basePath` it cannot serve is a TypeError, and a number
 * that is not a whole number in its range (NaN, a string, a negative bound) a RangeError naming
 * the option, when the app is built: such a bound would otherwise bound nothing.
 * The operation lives under the base path; the OpenAPI document and the probes at the root,
 * where load balancers and tooling look for them.
 *
 * @example
 * ```ts
 * import { createHttpApp, createHttpServer } from 'plant-store/adapters/http'
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 * import { makeStaticTokenAuthenticator } from 'plant-store/adapters/static-tokens'
 *
 * const app = createHttpApp({ plantStore: makeInMemoryPlantStore(), authenticator: makeStaticTokenAuthenticator(['s3cret-token']) })
 * createHttpServer(app).listen(8080, '127.0.0.1')
 * ```
 */
export const createHttpApp = ({
  plantStore,
  authenticator,
  log = warningsToConsole,
  observer,
  tracer,
  basePath = '',
  bodyLimitBytes = DEFAULT_BODY_LIMIT_BYTES,
  answerWithinMs,
  jsonLimits = DEFAULT_JSON_LIMITS,
  draining: drainingGiven,
  crossOrigin: crossOriginPolicy,
  readinessMaxAgeMs = DEFAULT_READINESS_MAX_AGE_MS,
  docsPage = true,
  clock = systemClock,
}: HttpAppDeps): Koa => {
  if (!isLiteralBasePath(basePath)) {
    throw new TypeError(`createHttpApp: basePath must be '' or like '/api/v1' (unreserved characters only)`)
  }
  wholeNumberOption('createHttpApp', 'bodyLimitBytes', bodyLimitBytes, 1)
  if (answerWithinMs !== undefined) wholeNumberOption('createHttpApp', 'answerWithinMs', answerWithinMs, 1, MAX_TIMER_MS)
  wholeNumberOption('createHttpApp', 'readinessMaxAgeMs', readinessMaxAgeMs, 0, MAX_TIMER_MS)
  const draining = drainingAsked(drainingGiven)
  const plants = `${basePath}${CREATE_PLANT.path}`
  // The document never changes while the app lives: it is serialised once, not per request (an
  // unauthenticated client could otherwise make the service serialise 30 KB on every request).
  // It is compressed then too, and answered as the /docs files are: a strong ETag, and 304.
  const documentJson = openApiText(openApiDocument(basePath, { bodyLimitBytes }, { crossOrigin: crossOriginPolicy !== undefined, docsPage }))
  const document = serveRepresentations('/openapi.json', represent(JSON_CONTENT_TYPE, Buffer.from(documentJson), 'no-cache'))
  const operation: PathRoute = {
    path: plants,
    methods: [CREATE_PLANT.method],
    route: createPlantRoute({ plantStore, authenticator, route: plants, clock, ...(answerWithinMs === undefined ? {} : { answerWithinMs }) }),
  }
  const routes = dispatch([
    operation,
    { path: '/openapi.json', methods: GET_AND_HEAD, route: document },
    { path: '/healthz', methods: GET_AND_HEAD, route: healthz('/healthz') },
    { path: '/readyz', methods: GET_AND_HEAD, route: readyz('/readyz', plantStore, draining, readinessMaxAgeMs, clock) },
    ...(docsPage ? docsAssets() : []).map(({ path, route }) => ({ path, methods: GET_AND_HEAD, route })),
  ])
  const isOperation = exactly(operation)
  const admitted = admitThenRoute(isOperation, operation.route, routes, makeJsonBodyReader(bodyLimitBytes, jsonLimits, makeDecodeQueue(undefined, clock), clock))
  const app = new KoaApplication()
  app.use(
    requestBoundary({
      log,
      observer,
      tracer,
      draining,
      answer: admitted,
      crossOrigin: crossOriginPolicy === undefined ? undefined : crossOrigin(crossOriginPolicy, ['GET', 'HEAD', CREATE_PLANT.method], new Set([plants])),
      routeOf: (ctx) => (isOperation(ctx) ? plants : routes.routeOf(ctx)),
      clock,
    }),
  )
  // Koa's `listen` serves an app on a bare Node server: Node's bodiless 400 and 431, no bound on
  // connections or slow clients. Koa's habit gets the service's server instead, with its default
  // limits; `createHttpServer(app, limits)` is how to choose others.
  app.listen = ((...args: Parameters<Server['listen']>) => createHttpServer(app, DEFAULT_HTTP_SERVER_LIMITS, clock).listen(...args)) as Koa['listen']
  return app
}

const GET_AND_HEAD = ['GET', 'HEAD']

// A signal is read where it is asked, with no call of the composer's on each request.
const drainingAsked = (given: HttpAppDeps['draining']): (() => boolean) => {
  if (given === undefined) return () => false
  if (typeof given === 'function') return given
  return () => given.aborted
}

// The one route the service exists for, matched by its method and its exact request target. The
// router holds it too, so a target this match does not take (one with a query, say) is answered
// by the same route, and the two ways in cannot disagree.
const exactly =
  ({ path, methods: [method] }: PathRoute) =>
  (ctx: Koa.Context): boolean =>
    ctx.req.url === path && ctx.req.method === method

// The checks every request passes, then its route, given the head and a reader of its body: the
// operation matched exactly, ahead of the router.
const admitThenRoute =
  (isOperation: (ctx: Koa.Context) => boolean, operation: Route, routes: Dispatch, readJsonBody: ReturnType<typeof makeJsonBodyReader>): AnswerRequest =>
  (ctx, head, served) => {
    if (head.refusal !== undefined) return { _tag: 'Problem', problem: head.refusal }
    const request: RouteRequest = {
      head,
      readJsonBody: (deadline) => readJsonBody(ctx.req, head, served, deadline),
    }
    return isOperation(ctx) ? operation(request) : routes.answer(ctx, request)
  }
