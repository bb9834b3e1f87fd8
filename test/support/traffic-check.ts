// Every answer a test receives from a service started by the tests is checked against the
// OpenAPI document that service serves. A mocha root-hook plugin (`require` in .mocharc.json):
// `fetch` is wrapped once, for the origins registered with `checkTrafficOf`, so every test that
// talks to such a service is checked without asking; raw socket exchanges go through
// `checkRawExchange`. When the whole suite has run, each answer the document describes must have
// been produced by some test, and each Error example it shows must have been seen.
import { AssertionError } from 'node:assert'
import { readdirSync } from 'node:fs'
import { get as httpGet } from 'node:http'
import { fileURLToPath } from 'node:url'
import type { Context, Suite } from 'mocha'
import { openApiDocument, type OpenApiDocument } from '../../adapters/http/index.js'
import { documentedAnswers, makeTrafficChecker, type Exchange, type Verdict } from './openapi-traffic.js'
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

// The suite ran whole when every test file was loaded and every test ran or was pending (no
// --grep, no single file, no --bail stop), with no failure (a failure is reported already).
const ranWhole = (root: Suite): boolean => {
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
  const onDisk = readdirSync(TEST_ROOT, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${TEST_ROOT}${file}`)
  return complete && onDisk.every((file) => files.has(file))
}

/** What the whole suite left unproduced of the document (the default one: BASE_PATH empty). */
export const unproduced = (document: OpenApiDocument): ReadonlyArray<string> => {
  const { keys, examples } = documentedAnswers(document)
  return [
    ...[...keys].filter((key) => !seenKeys.has(key)).map((key) => `no test produced ${key}`),
    ...[...examples].filter((body) => !seenErrorBodies.has(body)).map((body) => `no test was answered the example ${body}`),
  ]
}

export const mochaHooks = {
  beforeAll(): void {
    globalThis.fetch = checkedFetch
  },
  afterAll(this: Context): void {
    globalThis.fetch = originalFetch
    const root = this.test?.parent
    if (root === undefined || !ranWhole(root)) return
    const missing = unproduced(openApiDocument('', { bodyLimitBytes: TEST_BODY_LIMIT_BYTES }))
    if (missing.length > 0) {
      throw new AssertionError({ message: `the OpenAPI document describes answers no test produced:\n${missing.join('\n')}` })
    }
  },
}
