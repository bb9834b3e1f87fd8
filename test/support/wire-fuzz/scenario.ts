// A generated sequence of what clients do on a few raw connections to the service's two
// listeners: requests alone or pipelined in one write, a flood of pipelined requests, requests
// trickled piece by piece, half-closes, answers left unread, resets and pauses between.
import fc from 'fast-check'
import { requestShape, type RequestShape } from './requests.js'

/** The service's public listener, or its metrics listener (`METRICS_PORT`). */
export type Listener = 'public' | 'metrics'

/** Connections a scenario may use, each opened on its first action. */
export const CONNECTIONS = 3

/** How long a generated pause may be, at most: past the header timeout the fuzzer sets. */
export interface ScenarioTiming {
  /** The service's HEADERS_TIMEOUT_MS: some pauses go past it, so its refusal is exercised. */
  readonly headersTimeoutMs: number
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
  | { readonly _tag: 'Wait'; readonly ms: number }

export interface Scenario {
  /** The listener of each connection, by its index. */
  readonly listeners: ReadonlyArray<Listener>
  readonly actions: ReadonlyArray<Action>
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
        _tag: fc.constant('Wait' as const),
        ms: fc.oneof(
          { arbitrary: fc.integer({ min: 1, max: 60 }), weight: 4 },
          { arbitrary: fc.constant(timing.headersTimeoutMs + 100), weight: 1 },
        ),
      }),
      weight: 3,
    },
  )

/** Scenarios of one to `maxActions` actions on up to three connections, each to either listener. */
export const scenario = (timing: ScenarioTiming, maxActions = 8): fc.Arbitrary<Scenario> =>
  fc.record({
    listeners: fc.array(fc.constantFrom<Listener>('public', 'metrics'), { minLength: CONNECTIONS, maxLength: CONNECTIONS }),
    actions: fc.array(action(timing), { minLength: 1, maxLength: maxActions }),
  })
