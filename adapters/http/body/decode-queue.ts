import type { Clock } from '../../../core/index.js'
import { systemClock } from '../../../wire/index.js'

/**
 * Where the coded bodies of one app take turns at a decoder: fair queuing, round robin over the
 * clients with a body waiting (`Client.key`: an IPv4 address, an IPv6 /48 with every /64 inside
 * it, so a site spread over many networks takes one client's turns), each client's bodies one
 * after the other. A turn is one step of a body's decode (a bounded piece of output), not the
 * whole of it: a client sending many bodies, on many connections or pipelined, waits behind its
 * own, and a small body of another client waits one step of each other client, not their whole
 * bodies: no head-of-line blocking behind a large one. A brotli decoder may reserve a 16 MiB window and keeps it between its steps, so at most
 * `decoders` bodies hold one at once; the others wait for one to be let go. A body not decoded by
 * its deadline is given up where it is, waiting or half decoded, its decoder let go.
 */
export interface DecodeQueue {
  /**
   * Decodes one body in the turns of `client`: `begin` is called when the body is given a decoder,
   * and its steps run in the client's turns. Resolves the outcome of the last step, or `tooLate`
   * at `deadline` (on the queue's Clock), or `maxMs` after the call when that comes
   * first, having abandoned the decode; rejects as a step does.
   */
  readonly decode: <A>(client: string, begin: () => Decoding<A>, deadline: number, tooLate: A) => Promise<A>
}

/** A decode done a step at a time, so that the turns of others come between its steps. */
export interface Decoding<A> {
  /** Does the next step: resolves the outcome once the whole body is decoded, undefined while some is left. */
  readonly step: () => Promise<A | undefined>
  /** Stops the decode for good and lets its memory go; no step is asked for after it. */
  readonly abandon: () => void
}

export interface DecodeQueueOptions {
  /** Bodies holding a decoder at once. */
  readonly decoders: number
  /** Longest a body is waited for, from the call to its decoded bytes, whatever its deadline. */
  readonly maxMs: number
}

/**
 * Four decoders (at most 64 MiB of brotli windows), so that a small body need not wait for a
 * large one to end; 5 s, the storage deadline a stored plant also has.
 */
export const DEFAULT_DECODE_QUEUE_OPTIONS: DecodeQueueOptions = { decoders: 4, maxMs: 5_000 }

interface Body {
  readonly begin: () => Decoding<unknown>
  decoding: Decoding<unknown> | undefined
  readonly settle: (outcome: { readonly value: unknown } | { readonly error: unknown }) => void
}

export const makeDecodeQueue = ({ decoders, maxMs }: DecodeQueueOptions = DEFAULT_DECODE_QUEUE_OPTIONS, clock: Clock = systemClock): DecodeQueue => {
  // Each client's bodies in the order they came. A Map keeps insertion order: the client served
  // last goes to the back of the round.
  const lines = new Map<string, Body[]>()
  let held = 0
  // One step runs at a time: the decode of bodies takes at most one thread of libuv's pool.
  let stepping: Body | undefined

  const leave = (client: string, body: Body): void => {
    const bodies = lines.get(client)
    const at = bodies?.indexOf(body) ?? -1
    if (bodies === undefined || at === -1) return
    bodies.splice(at, 1)
    if (bodies.length === 0) lines.delete(client)
    if (body.decoding !== undefined) held -= 1
    if (stepping === body) stepping = undefined
  }

  const next = (): void => {
    if (stepping !== undefined) return
    for (const [client, bodies] of lines) {
      const body = bodies[0]
      if (body === undefined) continue
      if (body.decoding === undefined) {
        if (held >= decoders) continue
        try {
          body.decoding = body.begin()
        } catch (error) {
          leave(client, body)
          body.settle({ error })
          continue
        }
        held += 1
      }
      lines.delete(client)
      lines.set(client, bodies)
      stepping = body
      const stepped = (outcome: { readonly value: unknown } | { readonly error: unknown } | undefined): void => {
        // A body given up during its step was answered already, and the next step has begun.
        if (stepping !== body) return
        if (outcome !== undefined) {
          leave(client, body)
          body.settle(outcome)
        }
        stepping = undefined
        next()
      }
      body.decoding.step().then(
        (value) => stepped(value === undefined ? undefined : { value }),
        (error: unknown) => stepped({ error }),
      )
      return
    }
  }

  return {
    decode: <A>(client: string, begin: () => Decoding<A>, deadline: number, tooLate: A) =>
      new Promise<A>((resolve, reject) => {
        const msLeft = Math.min(deadline - clock.now(), maxMs)
        if (!(msLeft > 0)) return resolve(tooLate)
        const cancel = clock.setTimer(msLeft, () => {
          const decoding = body.decoding
          leave(client, body)
          decoding?.abandon()
          body.settle({ value: tooLate })
          next()
        })
        let settled = false
        const body: Body = {
          begin,
          decoding: undefined,
          settle: (outcome) => {
            if (settled) return
            settled = true
            cancel()
            if ('error' in outcome) reject(outcome.error)
            else resolve(outcome.value as A)
          },
        }
        const bodies = lines.get(client)
        if (bodies === undefined) lines.set(client, [body])
        else bodies.push(body)
        next()
      }),
  }
}
