// Plays one scenario against the running service and judges what followed: the process is alive,
// every answer that came back is well-formed HTTP/1.1 and an Error document where it is no
// success and may have a body, a fresh legitimate request on each listener still succeeds, and
// the process's memory stays within its bound.
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { errorDocumentProblem } from './error-answers.js'
import { readResponses } from './http-responses.js'
import { FUZZ_TOKEN, renderRequest } from './requests.js'
import type { Action, Scenario } from './scenario.js'
import { FUZZ_HEADERS_TIMEOUT_MS, residentMiB, type RunningService } from './service-under-fuzz.js'
import { openWire, type Endpoint, type Transcript, type WireConnection } from './wire-connection.js'

export interface FuzzBounds {
  /** The most resident memory the service may hold after any case, in MiB. */
  readonly maxResidentMiB: number
}

/** What a scenario ends with: nothing when the service held, otherwise every problem seen. */
export type Verdict = ReadonlyArray<string>

// A connection that has read nothing for this long is taken to have had all its answers.
const QUIET_MS = 120
// The most a scenario waits for answers after its last action.
const SETTLE_MAX_MS = 2_000
// A legitimate request on a fresh connection must be answered within this.
const FRESH_REQUEST_MS = 10_000
// The crash of a listener shows within milliseconds of the bytes that cause it.
const CRASH_WINDOW_MS = 30

const FLOOD_REQUEST = renderRequest({ _tag: 'Get', path: '/healthz', close: false })

const play = async (action: Action, connectionOf: (index: number) => Promise<WireConnection>): Promise<void> => {
  switch (action._tag) {
    case 'Send':
      return (await connectionOf(action.connection)).write(action.requests.map(renderRequest).join(''))
    case 'Flood':
      return (await connectionOf(action.connection)).write(FLOOD_REQUEST.repeat(action.count))
    case 'Trickle': {
      const connection = await connectionOf(action.connection)
      const bytes = renderRequest(action.request)
      const size = Math.max(1, Math.ceil(bytes.length / action.pieces))
      for (let at = 0; at < bytes.length; at += size) {
        if (at > 0) await sleep(action.gapMs)
        connection.write(bytes.slice(at, at + size))
      }
      return
    }
    case 'HalfClose':
      return (await connectionOf(action.connection)).halfClose()
    case 'StopReading':
      return (await connectionOf(action.connection)).stopReading()
    case 'Reset':
      return (await connectionOf(action.connection)).reset()
    case 'Wait':
      await sleep(action.ms)
      return
  }
}

// Waits until every connection still reading has been quiet for QUIET_MS, for at most SETTLE_MAX_MS.
const settle = async (connections: ReadonlyArray<WireConnection>): Promise<void> => {
  const deadline = performance.now() + SETTLE_MAX_MS
  await sleep(QUIET_MS)
  const busy = (c: WireConnection): boolean =>
    !c.closed() && !c.transcript().stoppedReading && performance.now() - c.lastReadAt() < QUIET_MS
  while (connections.some(busy) && performance.now() < deadline) await sleep(20)
}

/** What is wrong with the answers one connection received. */
export const transcriptProblems = (transcript: Transcript): ReadonlyArray<string> => {
  const stream = readResponses(transcript.received, transcript.endedByServer && !transcript.stoppedReading)
  const problems = [...stream.problems]
  for (const [index, response] of stream.responses.entries()) {
    const problem = errorDocumentProblem(response)
    if (problem !== undefined) problems.push(`response ${index + 1}: ${problem}`)
  }
  // Answers cut short by the client (it stopped reading, or dropped the connection) are its doing.
  if (stream.unfinished > 0 && transcript.endedByServer && !transcript.stoppedReading && !transcript.resetByClient) {
    problems.push(`the server closed the connection ${stream.unfinished} bytes into an answer`)
  }
  return problems
}

// A client that takes the headers timeout to send its request is answered 408, rightly: on a
// loaded machine the fuzzer's own process can stall that long between the connection's opening
// and its write. Such an attempt tells nothing of the service, and is made again.
const FRESH_ATTEMPTS = 3

// One request on a connection of its own, answered within FRESH_REQUEST_MS: what is wrong, if anything.
const freshRequestProblem = async (endpoint: Endpoint, request: string, what: string): Promise<string | undefined> => {
  for (let attempt = 1; ; attempt += 1) {
    const opening = performance.now()
    const connection = await openWire(endpoint)
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
    const problem = `a fresh ${what} was not answered 200 within ${FRESH_REQUEST_MS} ms (answers: ${statuses === '' ? 'none' : statuses}; ${how})`
    const slowToSend = sent - opening >= FUZZ_HEADERS_TIMEOUT_MS
    if (!slowToSend) return problem
    if (attempt === FRESH_ATTEMPTS) return `${problem}; the fuzzer itself took the headers timeout to send it, ${FRESH_ATTEMPTS} times`
  }
}

const freshPlant = (): string => {
  const body = `{"id":${randomBytes(6).readUIntBE(0, 6)},"name":"fresh"}`
  return (
    `POST /plants HTTP/1.1\r\nHost: fuzz\r\nAuthorization: Bearer ${FUZZ_TOKEN}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  )
}

const freshRequestProblems = async ({ endpoints }: RunningService): Promise<ReadonlyArray<string>> => {
  const problems = [
    await freshRequestProblem(endpoints.public, 'GET /healthz HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n\r\n', 'GET /healthz'),
    await freshRequestProblem(endpoints.public, freshPlant(), 'POST /plants with a valid token'),
    await freshRequestProblem(endpoints.metrics, 'GET /metrics HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n\r\n', 'GET /metrics'),
  ]
  return problems.filter((problem) => problem !== undefined)
}

/**
 * Plays a scenario on a running service and says what went wrong; nothing when all held.
 * `deathOf` tells whether the service has died, and what killed it.
 */
export const runScenario = async (
  service: RunningService,
  scenario: Scenario,
  bounds: FuzzBounds,
  deathOf: () => string | undefined,
): Promise<Verdict> => {
  const opened = new Map<number, Promise<WireConnection>>()
  const connectionOf = (index: number): Promise<WireConnection> => {
    const known = opened.get(index)
    if (known !== undefined) return known
    const listener = scenario.listeners[index] ?? 'public'
    const connection = openWire(service.endpoints[listener])
    opened.set(index, connection)
    return connection
  }
  const problems: string[] = []
  try {
    for (const action of scenario.actions) await play(action, connectionOf)
    const connections = await Promise.all(opened.values())
    await settle(connections)
    for (const [index, connection] of opened) {
      const label = `connection ${index} (${scenario.listeners[index] ?? 'public'} listener)`
      for (const problem of transcriptProblems((await connection).transcript())) problems.push(`${label}: ${problem}`)
    }
  } finally {
    for (const connection of await Promise.all(opened.values())) connection.reset()
  }
  await sleep(CRASH_WINDOW_MS)
  const died = deathOf()
  if (died !== undefined) return [died, ...problems]
  problems.push(...(await freshRequestProblems(service)))
  const diedLater = deathOf()
  if (diedLater !== undefined) return [diedLater, ...problems]
  const resident = residentMiB(service)
  if (resident !== undefined && resident > bounds.maxResidentMiB) {
    problems.push(`the service holds ${resident.toFixed(0)} MiB resident, past the bound of ${bounds.maxResidentMiB} MiB`)
  }
  return problems
}
