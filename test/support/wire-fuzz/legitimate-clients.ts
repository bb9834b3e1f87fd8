// A legitimate client: one request on a connection of its own, which must be answered 200 within
// seconds, whatever the other clients of the service are doing to it.
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { FUZZ_TOKEN } from './fuzz-credentials.js'
import { readResponses } from './http-responses.js'
import { FUZZ_LIMITS } from './service-under-fuzz.js'
import { openWire, type Endpoint } from './wire-connection.js'

// A legitimate request on a fresh connection must be answered within this.
const FRESH_REQUEST_MS = 10_000

// A client that takes the headers timeout to send its request is answered 408, rightly: on a
// loaded machine the fuzzer's own process can stall that long between the connection's opening
// and its write. Such an attempt tells nothing of the service, and is made again.
const FRESH_ATTEMPTS = 3

/** What is wrong with one request on a connection of its own (from `localAddress` when given): nothing when answered 200 in time. */
export const freshRequestProblem = async (endpoint: Endpoint, request: string, what: string, localAddress?: string): Promise<string | undefined> => {
  for (let attempt = 1; ; attempt += 1) {
    const opening = performance.now()
    const connection = await openWire(endpoint, localAddress)
    connection.write(request)
    const sent = performance.now()
    while (!connection.closed() && performance.now() - sent < FRESH_REQUEST_MS) await sleep(10)
    const waited = `${(performance.now() - sent).toFixed(0)} ms`
    const how = connection.closed() ? `the connection closed after ${waited}` : `still open after ${waited}`
    connection.reset()
    const transcript = connection.transcript()
    const stream = readResponses(transcript.received, transcript.endedByServer)
    const finals = stream.responses.filter((response) => response.status >= 200)
    if (stream.problems.length > 0) return `a fresh ${what}: ${stream.problems.join('; ')}`
    if (finals.length === 1 && finals[0]?.status === 200) return undefined
    const statuses = finals.map((response) => response.status).join(', ')
    const from = localAddress === undefined ? '' : ` from ${localAddress}`
    const problem = `a fresh ${what}${from} was not answered 200 within ${FRESH_REQUEST_MS} ms (answers: ${statuses === '' ? 'none' : statuses}; ${how})`
    const slowToSend = sent - opening >= FUZZ_LIMITS.headersTimeoutMs
    if (!slowToSend) return problem
    if (attempt === FRESH_ATTEMPTS) return `${problem}; the fuzzer itself took the headers timeout to send it, ${FRESH_ATTEMPTS} times`
  }
}

/** A POST /plants a legitimate client sends: a new plant, the static token, the connection closed after. */
export const legitimatePlant = (): string => {
  const body = `{"id":${randomBytes(6).readUIntBE(0, 6)},"name":"fresh"}`
  return (
    `POST /plants HTTP/1.1\r\nHost: fuzz\r\nAuthorization: Bearer ${FUZZ_TOKEN}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  )
}

export const LEGITIMATE_HEALTHZ = 'GET /healthz HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n\r\n'

/** A POST /plants and a GET /healthz from `localAddress` on the public listener, both at once. */
export const legitimateClientProblems = async (endpoint: Endpoint, localAddress?: string): Promise<ReadonlyArray<string>> => {
  const problems = await Promise.all([
    freshRequestProblem(endpoint, legitimatePlant(), 'POST /plants with a valid token', localAddress),
    freshRequestProblem(endpoint, LEGITIMATE_HEALTHZ, 'GET /healthz', localAddress),
  ])
  return problems.filter((problem) => problem !== undefined)
}
