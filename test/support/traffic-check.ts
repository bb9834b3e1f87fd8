// Every answer a test receives from a service started by the tests is checked against the
// OpenAPI document that service serves. A mocha root-hook plugin (`require` in .mocharc.json):
// `fetch` is wrapped once, for the origins registered with `checkTrafficOf`, so every test that
// talks to such a service is checked without asking; raw socket exchanges go through
// `checkRawExchange`. When a run has covered test/unit and test/integration whole, each answer the
// document describes must have been produced by some test, and each Error example it shows must
// have been seen: each mocha process (each worker, in parallel mode) writes down what its files
// saw, and the global teardown checks the union.
import { AssertionError } from 'node:assert'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { get as httpGet } from 'node:http'
import { fileURLToPath } from 'node:url'
import type { Context, Suite } from 'mocha'
import { openApiDocument, type OpenApiDocument } from '../../adapters/http/index.js'
import { makeTrafficChecker, type Exchange, type Verdict } from './openapi-traffic.js'
import { unproducedByRun, type Seen } from './traffic-union.js'
import { TEST_BODY_LIMIT_BYTES } from './limits.js'

type Checker = (exchange: Exchange) => Verdict

const originalFetch = globalThis.fetch
const checkers = new Map<string, Promise<Checker>>()
const seenKeys = new Set<string>()
const seenErrorBodies = new Set<string>()

/**
 * From now on, answers from this origin are checked against the document it serves. Resolves
 * once the document is read: a test that awaits it finds the server as it was, with no request
 * of the checker's still in flight and no connection of its kept open (some tests count them).
 */
export const checkTrafficOf = async (url: string): Promise<void> => {
  const { origin } = new URL(url)
  const checker = fetchDocument(origin)
    .then(makeTrafficChecker)
    // A service that cannot serve its document fails the first check, not the registration.
    .catch((error: unknown): Checker => () => ({ key: '', problems: [`no OpenAPI document at ${origin}: ${String(error)}`] }))
  checkers.set(origin, checker)
  await checker
}

// On a connection of its own that closes after the answer (no keep-alive agent).
const fetchDocument = (origin: string): Promise<OpenApiDocument> =>
  new Promise((resolve, reject) => {
    const request = httpGet(`${origin}/openapi.json`, { agent: false }, (response) => {
      let text = ''
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      response.on('end', () => {
        try {
          resolve(JSON.parse(text) as OpenApiDocument)
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)))
        }
      })
    })
    request.on('error', reject)
  })

/** Stops checking an origin (its server is closing; another may take the port). */
export const forgetTrafficOf = (url: string): void => {
  checkers.delete(new URL(url).origin)
}

const judge = async (origin: string, exchange: Exchange): Promise<void> => {
  const checker = checkers.get(origin)
  if (checker === undefined) return
  const verdict = (await checker)(exchange)
  seenKeys.add(verdict.key)
  if (verdict.errorBody !== undefined) seenErrorBodies.add(verdict.errorBody)
  if (verdict.problems.length > 0) {
    throw new AssertionError({ message: `an answer the OpenAPI document does not describe:\n${verdict.problems.join('\n')}` })
  }
}

const checkedFetch: typeof fetch = async (input, init) => {
  const response = await originalFetch(input, init)
  const request = input instanceof Request ? input : undefined
  const url = new URL(request?.url ?? String(input))
  if (!checkers.has(url.origin)) return response
  const method = (init?.method ?? request?.method ?? 'GET').toUpperCase()
  await judge(url.origin, {
    method,
    path: url.pathname,
    status: response.status,
    header: (name) => response.headers.get(name),
    body: method === 'HEAD' ? '' : await response.clone().text(),
  })
  return response
}

/**
 * Checks an exchange made on a raw socket: the request as sent and the reply as received (which
 * may stop after the headers, when the test closed the socket early).
 */
export const checkRawExchange = async (url: string, request: string, reply: string): Promise<void> => {
  const [method = '', target] = /^(\S+) (\S+) HTTP\/1\.[01]\r\n/.exec(request)?.slice(1) ?? []
  const end = reply.indexOf('\r\n\r\n')
  const [statusLine = '', ...headerLines] = reply.slice(0, end === -1 ? undefined : end).split('\r\n')
  const headers = new Map(
    headerLines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  )
  const body = end === -1 ? '' : reply.slice(end + 4)
  const complete = Number(headers.get('content-length') ?? 0) === Buffer.byteLength(body)
  await judge(new URL(url).origin, {
    // A reply cut short is checked for its status and headers; its body is left out.
    method: complete ? method || 'GET' : 'HEAD',
    path: target === undefined ? undefined : new URL(target, 'http://x').pathname,
    status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]),
    header: (name) => headers.get(name.toLowerCase()) ?? null,
    body,
  })
}

const TEST_ROOT = fileURLToPath(new URL('..', import.meta.url))
// The run that claims the check: the whole of these tiers (npm test), alone or with test/e2e.
const CHECKED_TIERS = ['unit', 'integration']
// Where each mocha process of the run leaves what its files saw, and the run's main process: set by
// the global setup, which runs once before any worker starts, so every worker inherits them. A
// mocha that a test starts inherits them too, and writes nothing: it is neither that process nor
// one of its workers.
const SEEN_DIR = 'PLANT_STORE_TRAFFIC_SEEN_DIR'
const RUN_PID = 'PLANT_STORE_TRAFFIC_RUN_PID'
const inThisRun = (): boolean => [process.pid, process.ppid].map(String).includes(process.env[RUN_PID] ?? '')

// Complete when every test ran and passed or was pending (no --grep, no --bail stop, no failure:
// a failure is reported already).
const seenBy = (root: Suite): Seen => {
  const files = new Set<string>()
  let complete = true
  const walk = (suite: Suite) => {
    if (suite.file !== undefined) files.add(suite.file)
    for (const test of suite.tests) {
      if (test.file !== undefined) files.add(test.file)
      if (test.state !== 'passed' && !test.isPending()) complete = false
    }
    suite.suites.forEach(walk)
  }
  walk(root)
  return { files: [...files], complete, keys: [...seenKeys], errorBodies: [...seenErrorBodies] }
}

const checkedFiles = (): ReadonlyArray<string> =>
  CHECKED_TIERS.flatMap((tier) =>
    readdirSync(join(TEST_ROOT, tier), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => join(TEST_ROOT, tier, file)),
  )

let recorded = 0

// Root hooks run once per file in parallel mode, in the worker that ran it, and once for the whole
// run in serial mode: either way each root suite leaves what it saw in the run's folder.
export const mochaHooks = {
  beforeAll(): void {
    globalThis.fetch = checkedFetch
  },
  afterAll(this: Context): void {
    globalThis.fetch = originalFetch
    const root = this.test?.parent
    const dir = process.env[SEEN_DIR]
    if (root === undefined || dir === undefined || !inThisRun()) return
    recorded += 1
    writeFileSync(join(dir, `${process.pid}-${recorded}.json`), JSON.stringify(seenBy(root)))
  },
}

// Global fixtures run once, in the main mocha process, whether the run is parallel or serial.
export function mochaGlobalSetup(): void {
  process.env[SEEN_DIR] = mkdtempSync(join(tmpdir(), 'plant-store-traffic-'))
  process.env[RUN_PID] = String(process.pid)
}

export function mochaGlobalTeardown(): void {
  const dir = process.env[SEEN_DIR]
  if (dir === undefined) return
  const records = readdirSync(dir).map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Seen)
  rmSync(dir, { recursive: true, force: true })
  const missing = unproducedByRun(records, checkedFiles(), openApiDocument('', { bodyLimitBytes: TEST_BODY_LIMIT_BYTES }))
  if (missing !== undefined && missing.length > 0) {
    throw new AssertionError({ message: `the OpenAPI document describes answers no test produced:\n${missing.join('\n')}` })
  }
}
