// Plays one scenario against the running service and judges what followed: the process is alive,
// every answer that came back is well-formed HTTP/1.1, an Error document where it is no success
// and may have a body, and no 5xx but the documented 503s and 501s; legitimate clients from an address of
// their own are served while the scenario's connections (and its crowd) still hold theirs, and
// fresh requests on each listener after; the process's memory stays within its bound; and a
// SIGTERM part-way ends the process within what the service promises.
import { setTimeout as sleep } from 'node:timers/promises'
import { openCrowd, LEGITIMATE_ADDRESS, type HeldCrowd } from './crowd.js'
import { errorDocumentProblem, serverFaultProblem } from './error-answers.js'
import { readResponses } from './http-responses.js'
import { freshRequestProblem, legitimateClientProblems, legitimatePlant, LEGITIMATE_HEALTHZ } from './legitimate-clients.js'
import { renderGet, renderRequest, type RenderContext } from './requests.js'
import type { Action, Scenario } from './scenario.js'
import { residentMiB, type RunningService } from './service-under-fuzz.js'
import { signalStop, stopProblems } from './stop-mid-run.js'
import { openWire, type Transcript, type WireConnection } from './wire-connection.js'

export interface FuzzBounds {
  /** The most resident memory the service may hold after any case, in MiB. */
  readonly maxResidentMiB: number
}

/** What a scenario ends with: nothing when the service held, otherwise every problem seen. */
export type Verdict = ReadonlyArray<string>

/** What the scenario may ask of whoever keeps the service. */
export interface ServiceHooks {
  /** Whether the service has died, and what killed it. */
  readonly deathOf: () => string | undefined
  /** Ends a service the scenario stopped: the next scenario has a fresh one. */
  readonly retire: () => Promise<void>
}

// A connection that has read nothing for this long is taken to have had all its answers.
const QUIET_MS = 120
// The most a scenario waits for answers after its last action.
const SETTLE_MAX_MS = 2_000
// The crash of a listener shows within milliseconds of the bytes that cause it.
const CRASH_WINDOW_MS = 30

interface Opened {
  readonly connectionOf: (index: number) => Promise<WireConnection>
  /** A connection of its own for HEAD requests. */
  readonly headConnection: () => Promise<WireConnection>
}

const play = async (action: Action, opened: Opened, context: RenderContext): Promise<void> => {
  const render = (shape: Parameters<typeof renderRequest>[0]): string => renderRequest(shape, context)
  switch (action._tag) {
    case 'Send':
      return (await opened.connectionOf(action.connection)).write(action.requests.map(render).join(''))
    case 'Flood':
      return (await opened.connectionOf(action.connection)).write(render({ _tag: 'Get', path: '/healthz', close: false, fields: {} }).repeat(action.count))
    case 'Trickle': {
      const connection = await opened.connectionOf(action.connection)
      const bytes = render(action.request)
      const size = Math.max(1, Math.ceil(bytes.length / action.pieces))
      for (let at = 0; at < bytes.length; at += size) {
        if (at > 0) await sleep(action.gapMs)
        connection.write(bytes.slice(at, at + size))
      }
      return
    }
    case 'HalfClose':
      return (await opened.connectionOf(action.connection)).halfClose()
    case 'StopReading':
      return (await opened.connectionOf(action.connection)).stopReading()
    case 'Reset':
      return (await opened.connectionOf(action.connection)).reset()
    case 'Heads':
      return (await opened.headConnection()).write(action.paths.map((path) => renderGet('HEAD', path, false, action.fields, context)).join(''))
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

/** What is wrong with the answers one connection received; `toHead` when every request on it was a HEAD. */
export const transcriptProblems = (transcript: Transcript, toHead = false): ReadonlyArray<string> => {
  const stream = readResponses(transcript.received, transcript.endedByServer && !transcript.stoppedReading, toHead)
  const problems = [...stream.problems]
  for (const [index, response] of stream.responses.entries()) {
    const problem = serverFaultProblem(response) ?? (toHead ? undefined : errorDocumentProblem(response))
    if (problem !== undefined) problems.push(`response ${index + 1}: ${problem}`)
  }
  // Answers cut short by the client (it stopped reading, or dropped the connection) are its doing.
  if (stream.unfinished > 0 && transcript.endedByServer && !transcript.stoppedReading && !transcript.resetByClient) {
    problems.push(`the server closed the connection ${stream.unfinished} bytes into an answer`)
  }
  return problems
}

const freshRequestProblems = async ({ endpoints }: RunningService): Promise<ReadonlyArray<string>> => {
  const problems = [
    await freshRequestProblem(endpoints.public, LEGITIMATE_HEALTHZ, 'GET /healthz'),
    await freshRequestProblem(endpoints.public, legitimatePlant(), 'POST /plants with a valid token'),
    await freshRequestProblem(endpoints.metrics, 'GET /metrics HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n\r\n', 'GET /metrics'),
  ]
  return problems.filter((problem) => problem !== undefined)
}

// At most this many problems of a crowd's connections are reported: one kind of fault repeats on each.
const CROWD_PROBLEMS_SHOWN = 3

/** Plays a scenario on a running service and says what went wrong; nothing when all held. */
export const runScenario = async (service: RunningService, scenario: Scenario, bounds: FuzzBounds, hooks: ServiceHooks): Promise<Verdict> => {
  const opened = new Map<number, Promise<WireConnection>>()
  const heads: Array<Promise<WireConnection>> = []
  const connectionOf = (index: number): Promise<WireConnection> => {
    const known = opened.get(index)
    if (known !== undefined) return known
    const listener = scenario.listeners[index] ?? 'public'
    const connection = openWire(service.endpoints[listener])
    opened.set(index, connection)
    return connection
  }
  const headConnection = (): Promise<WireConnection> => {
    const connection = openWire(service.endpoints.public)
    heads.push(connection)
    return connection
  }
  const problems: string[] = []
  let crowd: HeldCrowd | undefined
  let signalled: number | undefined
  const { stop } = scenario
  const stopAfter = stop === undefined ? -1 : Math.min(stop.afterAction, scenario.actions.length - 1)
  try {
    if (scenario.crowd !== undefined) crowd = await openCrowd(service.endpoints.public, scenario.crowd, service.context)
    for (const [index, action] of scenario.actions.entries()) {
      await play(action, { connectionOf, headConnection }, service.context)
      if (stop !== undefined && index === stopAfter) signalled = signalStop(service, stop)
    }
    const own = await Promise.all(opened.values())
    const headed = await Promise.all(heads)
    await settle([...own, ...headed])
    // While every connection of the scenario still holds what it held, from an address of its own.
    if (signalled === undefined && hooks.deathOf() === undefined) {
      for (const problem of await legitimateClientProblems(service.endpoints.public, LEGITIMATE_ADDRESS)) problems.push(`while the scenario held its connections: ${problem}`)
    }
    for (const [index, connection] of opened) {
      const label = `connection ${index} (${scenario.listeners[index] ?? 'public'} listener)`
      for (const problem of transcriptProblems((await connection).transcript())) problems.push(`${label}: ${problem}`)
    }
    for (const [index, connection] of headed.entries()) {
      for (const problem of transcriptProblems(connection.transcript(), true)) problems.push(`HEAD connection ${index}: ${problem}`)
    }
    const crowdProblems = (crowd?.connections ?? []).flatMap(({ address, connection }) =>
      transcriptProblems(connection.transcript()).map((problem) => `crowd connection from ${address}: ${problem}`),
    )
    problems.push(...crowdProblems.slice(0, CROWD_PROBLEMS_SHOWN))
    if (crowdProblems.length > CROWD_PROBLEMS_SHOWN) problems.push(`and ${crowdProblems.length - CROWD_PROBLEMS_SHOWN} more of the crowd's connections`)
  } finally {
    crowd?.quiet()
    for (const connection of await Promise.all([...opened.values(), ...heads])) connection.reset()
    for (const { connection } of crowd?.connections ?? []) connection.reset()
  }
  if (signalled !== undefined) {
    problems.push(...(await stopProblems(service, signalled)))
    await hooks.retire()
    return problems
  }
  await sleep(CRASH_WINDOW_MS)
  const died = hooks.deathOf()
  if (died !== undefined) return [died, ...problems]
  problems.push(...(await freshRequestProblems(service)))
  const diedLater = hooks.deathOf()
  if (diedLater !== undefined) return [diedLater, ...problems]
  const resident = residentMiB(service)
  if (resident !== undefined && resident > bounds.maxResidentMiB) {
    problems.push(`the service holds ${resident.toFixed(0)} MiB resident, past the bound of ${bounds.maxResidentMiB} MiB`)
  }
  return problems
}
