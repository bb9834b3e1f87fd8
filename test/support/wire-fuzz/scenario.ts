// A generated sequence of what clients do on a few raw connections to the service's two
// listeners: requests alone or pipelined in one write, a flood of pipelined requests, requests
// trickled piece by piece, HEAD requests, half-closes, answers left unread, resets and pauses
// between; sometimes beside a crowd of connections from several addresses holding slots, and
// sometimes with a SIGTERM part-way.
import fc from 'fast-check'
import { crowd, type Crowd } from './crowd.js'
import { path, requestShape, type Path, type RequestShape } from './requests.js'
import { requestFields, type RequestFields } from './request-fields.js'
import { stopMidRun, type Stop } from './stop-mid-run.js'

/** The service's public listener, or its metrics listener (`METRICS_PORT`). */
export type Listener = 'public' | 'metrics'

/** Connections a scenario may use, each opened on its first action. */
export const CONNECTIONS = 3

/** The service's bounds a scenario is shaped by. */
export interface ScenarioTiming {
  /**
   * Pauses that go just past one of the service's time-outs (the first byte, a body's progress,
   * the headers), so that what each ends is exercised.
   */
  readonly longPausesMs: ReadonlyArray<number>
  /** Connections per address the service allows: a crowd holds about that many from each of its addresses. */
  readonly share: number
  /** Connections the service holds in all: a crowd of many addresses holds about that many. */
  readonly cap: number
  /** How often a scenario is played beside a crowd, and how often it has a SIGTERM in it, from 0 to 1. */
  readonly crowdOdds: number
  readonly stopOdds: number
}

export type Action =
  /** The requests in one write: one request, or several pipelined. */
  | { readonly _tag: 'Send'; readonly connection: number; readonly requests: ReadonlyArray<RequestShape> }
  /** `count` pipelined `GET /healthz` in one write. */
  | { readonly _tag: 'Flood'; readonly connection: number; readonly count: number }
  /** A request written in `pieces` writes, `gapMs` apart. */
  | { readonly _tag: 'Trickle'; readonly connection: number; readonly request: RequestShape; readonly pieces: number; readonly gapMs: number }
  /** The client's end of the connection closed (FIN); it still reads. */
  | { readonly _tag: 'HalfClose'; readonly connection: number }
  /** The client stops reading: whatever the service sends next waits in buffers. */
  | { readonly _tag: 'StopReading'; readonly connection: number }
  /** The client drops the connection. */
  | { readonly _tag: 'Reset'; readonly connection: number }
  /**
   * HEAD requests pipelined on a connection of their own to the public listener: every answer
   * on it is to a HEAD, so its reader knows none has a body.
   */
  | { readonly _tag: 'Heads'; readonly paths: ReadonlyArray<Path>; readonly fields: RequestFields }
  | { readonly _tag: 'Wait'; readonly ms: number }

export interface Scenario {
  /** The listener of each connection, by its index. */
  readonly listeners: ReadonlyArray<Listener>
  /** Connections from several addresses, opened before the first action and held to the end. */
  readonly crowd?: Crowd
  readonly actions: ReadonlyArray<Action>
  /** A SIGTERM part-way, and what the readers of the service's output do meanwhile. */
  readonly stop?: Stop
}

const connection = fc.nat({ max: CONNECTIONS - 1 })

const action = (timing: ScenarioTiming): fc.Arbitrary<Action> =>
  fc.oneof(
    {
      arbitrary: fc.record({
        _tag: fc.constant('Send' as const),
        connection,
        requests: fc.array(requestShape, { minLength: 1, maxLength: 4 }),
      }),
      weight: 6,
    },
    { arbitrary: fc.record({ _tag: fc.constant('Flood' as const), connection, count: fc.integer({ min: 2, max: 300 }) }), weight: 1 },
    {
      arbitrary: fc.record({
        _tag: fc.constant('Trickle' as const),
        connection,
        request: requestShape,
        pieces: fc.integer({ min: 2, max: 8 }),
        gapMs: fc.integer({ min: 1, max: 60 }),
      }),
      weight: 2,
    },
    { arbitrary: fc.record({ _tag: fc.constant('HalfClose' as const), connection }), weight: 1 },
    { arbitrary: fc.record({ _tag: fc.constant('StopReading' as const), connection }), weight: 1 },
    { arbitrary: fc.record({ _tag: fc.constant('Reset' as const), connection }), weight: 1 },
    {
      arbitrary: fc.record({
        _tag: fc.constant('Heads' as const),
        paths: fc.array(path, { minLength: 1, maxLength: 4 }),
        fields: fc.oneof(fc.constant({}), requestFields),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        _tag: fc.constant('Wait' as const),
        ms: timing.longPausesMs.length === 0
          ? fc.integer({ min: 1, max: 60 })
          : fc.oneof(
              { arbitrary: fc.integer({ min: 1, max: 60 }), weight: 12 },
              { arbitrary: fc.constantFrom(...timing.longPausesMs), weight: 1 },
            ),
      }),
      weight: 3,
    },
  )

// Present with the given odds, absent otherwise (fast-check shrinks towards absent).
const sometimes = <A>(odds: number, arbitrary: fc.Arbitrary<A>): fc.Arbitrary<A | undefined> => {
  if (odds <= 0) return fc.constant(undefined)
  if (odds >= 1) return arbitrary
  const weight = Math.round(odds * 100)
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 100 - weight }, { arbitrary, weight })
}

/**
 * Scenarios of one to `maxActions` actions on up to three connections, each to either listener,
 * and HEAD connections of their own; beside a crowd and with a SIGTERM part-way at the odds
 * `timing` gives.
 */
export const scenario = (timing: ScenarioTiming, maxActions = 8): fc.Arbitrary<Scenario> =>
  fc
    .record({
      listeners: fc.array(fc.constantFrom<Listener>('public', 'metrics'), { minLength: CONNECTIONS, maxLength: CONNECTIONS }),
      crowd: sometimes(timing.crowdOdds, crowd(timing.share, timing.cap)),
      actions: fc.array(action(timing), { minLength: 1, maxLength: maxActions }),
      stop: sometimes(timing.stopOdds, stopMidRun(maxActions)),
    })
    .map(({ crowd: held, stop, ...rest }) => ({ ...rest, ...(held === undefined ? {} : { crowd: held }), ...(stop === undefined ? {} : { stop }) }))
