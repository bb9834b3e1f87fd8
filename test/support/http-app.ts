import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import {
  createHttpApp,
  createHttpServer,
  DEFAULT_HTTP_SERVER_LIMITS,
  type HttpAppDeps,
  type HttpServerLimits,
  type Logger,
} from '../../adapters/http/index.js'
import type { Clock } from '../../core/index.js'
import { makeInMemoryPlantStore } from '../../adapters/in-memory/index.js'
import { makeStaticTokenAuthenticator } from '../../adapters/static-tokens/index.js'
import { checkTrafficOf, forgetTrafficOf } from './traffic-check.js'
import { TEST_BODY_LIMIT_BYTES } from './limits.js'

export const TOKEN = 'test-token-0123456789abcdef'

/** A log that keeps its lines, so a test can look at what was logged. */
export const makeMemoryLogger = (): Logger & { readonly lines: ReadonlyArray<Record<string, unknown>> } => {
  const lines: Array<Record<string, unknown>> = []
  const entry = (level: string) => (msg: string, fields: Readonly<Record<string, unknown>> = {}) => {
    lines.push({ level, msg, ...fields })
  }
  return { lines, info: entry('info'), warn: entry('warn'), error: entry('error') }
}

/** The options a test app was built with, the defaulted ones spelled out so a test can read them. */
export type TestAppDeps = HttpAppDeps & Required<Pick<HttpAppDeps, 'log' | 'basePath' | 'bodyLimitBytes'>>

export interface TestApp {
  readonly url: string
  readonly deps: TestAppDeps
  readonly log: ReturnType<typeof makeMemoryLogger>
  readonly close: () => Promise<void>
}

/**
 * Serves the real Koa app on an ephemeral loopback port, with in-memory defaults. Every answer a
 * test gets from it is checked against the OpenAPI document it serves (test/support/traffic-check.ts).
 * Given a `clock` (a virtual one), the server's own timeouts and admission rule run on it.
 */
export const startTestApp = async (
  overrides: Partial<HttpAppDeps> = {},
  limits: Partial<HttpServerLimits> = {},
  clock?: Clock,
): Promise<TestApp> => {
  const log = makeMemoryLogger()
  const deps: TestAppDeps = {
    plantStore: makeInMemoryPlantStore(),
    authenticator: makeStaticTokenAuthenticator([TOKEN]),
    log,
    basePath: '',
    bodyLimitBytes: TEST_BODY_LIMIT_BYTES,
    ...overrides,
  }
  const app = createHttpApp(deps)
  app.silent = true
  const server = createHttpServer(app, { ...DEFAULT_HTTP_SERVER_LIMITS, ...limits }, clock)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  await checkTrafficOf(url)
  return {
    url,
    deps,
    log,
    close: async () => {
      forgetTrafficOf(url)
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** The app of the test running now, served as `startTestApp` serves it. */
export interface TestAppFixture {
  readonly url: string
  readonly deps: TestAppDeps
  readonly log: TestApp['log']
  /** Closes this test's app and serves another in its place, for a test that needs other settings. */
  readonly restart: (overrides?: Partial<HttpAppDeps>, limits?: Partial<HttpServerLimits>) => Promise<void>
}

/**
 * The fixture of a suite against the app: one served before each test (with what `overrides`
 * gives for that test) and closed after it.
 */
export const useTestApp = (overrides: () => Partial<HttpAppDeps> = () => ({}), limits: Partial<HttpServerLimits> = {}): TestAppFixture => {
  let app: TestApp | undefined
  const current = (): TestApp => {
    if (app === undefined) throw new Error('the app is served before each test')
    return app
  }
  beforeEach(async function () {
    app = await startTestApp(overrides(), limits)
  })
  afterEach(async function () {
    await app?.close()
    app = undefined
  })
  return {
    get url() {
      return current().url
    },
    get deps() {
      return current().deps
    },
    get log() {
      return current().log
    },
    restart: async (nextOverrides = {}, nextLimits = {}) => {
      await current().close()
      app = undefined
      app = await startTestApp(nextOverrides, nextLimits)
    },
  }
}

/** POSTs a body to /plants, as text (sent as is) or as bytes, with the test token by default. */
export const postPlant = (
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
): Promise<Response> =>
  fetch(`${url}/plants`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', ...headers },
    body,
  })
