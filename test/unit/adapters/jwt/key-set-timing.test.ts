import { expect } from 'chai'
import fc from 'fast-check'
import { exportJWK, generateKeyPair, type JWK } from 'jose'
import type { Requester } from '../../../../adapters/jwt/key-set-fetch.js'
import { KeySetUnavailable, makeRemoteKeySet, UnknownSigningKey } from '../../../../adapters/jwt/remote-key-set.js'
import { virtualClock, type VirtualClock } from '../../../support/virtual-clock.js'

// The key set's rules, as the JWT adapter states them, checked on virtual time against a model of
// the provider (no socket):
// - a fetch may start unless one failed less than cooldownMs ago, or it is for a key the set does
//   not hold and one ended less than cooldownMs ago, or maxFetchesPerMinute started in the last
//   60 s; a fetch wanted while one is under way joins it;
// - the set is wanted before a token's key is looked up while no keys are held or they are
//   cacheMaxAgeMs old or more, when the keys held lack the token's key, and every
//   refreshIntervalMs on a timer;
// - a fetch that has not answered timeoutMs after it started fails, as does an answer that is not
//   a 200, a 200 that is not a key set, or a refused connection; a failure leaves the keys held;
// - a token gets its key when the keys held as it arrives (once a refresh it wants is over) or
//   after the fetch it wanted for its key hold it; else it is KeySetUnavailable when no keys are
//   held or the last fetch failed, and UnknownSigningKey otherwise.
// The model below applies these sentences step by step; the key set must agree with it on every
// verdict, on the number of fetches the provider sees and on what the observer is told of each.

type Kid = 'a' | 'b' | 'stranger'
type Behaviour = 'ok' | 'fail' | 'nonsense' | 'refused' | 'hang'
type Verdict = 'key' | 'unknown' | 'unavailable'
type Step =
  | { readonly kind: 'advance'; readonly ms: number }
  | { readonly kind: 'tokens'; readonly kids: ReadonlyArray<Kid> }
  | { readonly kind: 'publish'; readonly kids: ReadonlyArray<Kid> }
  | { readonly kind: 'behave'; readonly behaviour: Behaviour }

interface Options {
  readonly cooldownMs: number
  readonly cacheMaxAgeMs: number
  readonly refreshIntervalMs: number
  readonly timeoutMs: number
  readonly maxFetchesPerMinute: number
}

const seconds = (min: number, max: number) => fc.integer({ min, max }).map((s) => s * 1000)

// Whole seconds throughout, so that tokens, ticks and time-outs fall on the very end of a
// cool-down, a cache age or a minute. A cool-down of at least a second keeps the order of tokens
// that arrive together out of the answer (a zero cool-down is the admission test's).
const options: fc.Arbitrary<Options> = fc.record({
  cooldownMs: seconds(1, 60),
  cacheMaxAgeMs: seconds(1, 300),
  refreshIntervalMs: seconds(1, 300),
  timeoutMs: seconds(1, 10),
  maxFetchesPerMinute: fc.integer({ min: 1, max: 6 }),
})

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: seconds(0, 120) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('tokens' as const), kids: fc.array(fc.constantFrom<Kid>('a', 'b', 'stranger'), { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('publish' as const), kids: fc.constantFrom<ReadonlyArray<Kid>>(['a'], ['a', 'b'], ['b']) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('behave' as const), behaviour: fc.constantFrom<Behaviour>('ok', 'fail', 'nonsense', 'refused', 'hang') }) },
)

/** The identity provider, in process: what it publishes, how it answers, and what it was asked. */
const modelProvider = (clock: VirtualClock['clock'], jwks: Readonly<Record<Kid, JWK>>) => {
  let published: ReadonlyArray<Kid> = ['a']
  let behaviour: Behaviour = 'ok'
  let requests = 0
  let hanging: { readonly startedAt: number } | undefined
  const answer: Requester = (_url, init) => {
    requests += 1
    switch (behaviour) {
      case 'ok':
        return Promise.resolve(new Response(JSON.stringify({ keys: published.map((kid) => jwks[kid]) }), { status: 200 }))
      case 'fail':
        return Promise.resolve(new Response('identity provider is having a bad day', { status: 500 }))
      case 'nonsense':
        return Promise.resolve(new Response('{"status":"down for maintenance"}', { status: 200 }))
      case 'refused':
        return Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }))
      case 'hang': {
        const request = { startedAt: clock.now() }
        hanging = request
        return new Promise((_, reject) => {
          init.signal?.addEventListener('abort', () => {
            if (hanging === request) hanging = undefined
            reject(init.signal?.reason)
          }, { once: true })
        })
      }
    }
  }
  return {
    answer,
    publish: (kids: ReadonlyArray<Kid>) => void (published = kids),
    behave: (next: Behaviour) => void (behaviour = next),
    requests: () => requests,
    hanging: () => hanging,
  }
}

/** The rules above, applied in order: what the key set must do. */
const modelKeySet = ({ cooldownMs, cacheMaxAgeMs, refreshIntervalMs, timeoutMs, maxFetchesPerMinute }: Options) => {
  let now = 0
  let published: ReadonlyArray<Kid> = ['a']
  let behaviour: Behaviour = 'ok'
  let held: { readonly kids: ReadonlyArray<Kid>; readonly at: number } | undefined
  let lastFailed = false
  let lastEnded: number | undefined
  let lastFailure: number | undefined
  const started: number[] = []
  let pending: { readonly endsAt: number } | undefined
  let nextTick = refreshIntervalMs
  const outcomes: Array<'ok' | 'failed'> = []

  const admits = (unknownKey: boolean): boolean =>
    !(lastFailure !== undefined && now - lastFailure < cooldownMs) &&
    !(unknownKey && lastEnded !== undefined && now - lastEnded < cooldownMs) &&
    started.filter((at) => now - at < 60_000).length < maxFetchesPerMinute
  const end = (ok: boolean): void => {
    lastEnded = now
    lastFailed = !ok
    if (!ok) lastFailure = now
    outcomes.push(ok ? 'ok' : 'failed')
  }
  const start = (): void => {
    started.push(now)
    if (behaviour === 'hang') pending = { endsAt: now + timeoutMs }
    else if (behaviour === 'ok') {
      held = { kids: published, at: now }
      end(true)
    } else end(false)
  }
  // Time moves to `until`: a hanging fetch fails at its time-out (before a tick at the same
  // time, which it would have joined or been refused by alike), each tick wants a refresh.
  const advanceTo = (until: number): void => {
    for (;;) {
      const endsAt = pending?.endsAt ?? Number.POSITIVE_INFINITY
      if (Math.min(endsAt, nextTick) > until) break
      if (endsAt <= nextTick) {
        now = endsAt
        pending = undefined
        end(false)
      } else {
        now = nextTick
        nextTick += refreshIntervalMs
        if (pending === undefined && admits(false)) start()
      }
    }
    now = until
  }
  const want = (unknownKey: boolean): void => {
    if (pending === undefined && admits(unknownKey)) start()
    if (pending !== undefined) advanceTo(pending.endsAt)
  }
  // Tokens sent together each look their key up in the keys held once the refresh they all want
  // (when the keys are stale) is over, and those whose key is not there share one fetch.
  const verify = (kids: ReadonlyArray<Kid>): ReadonlyArray<Verdict> => {
    if (held === undefined || now - held.at >= cacheMaxAgeMs) want(false)
    const looked = held
    if (looked === undefined) return kids.map(() => 'unavailable')
    if (kids.some((kid) => !looked.kids.includes(kid))) want(true)
    return kids.map((kid) => (looked.kids.includes(kid) || held?.kids.includes(kid) === true ? 'key' : lastFailed ? 'unavailable' : 'unknown'))
  }
  return {
    verify,
    advance: (ms: number) => advanceTo(now + ms),
    publish: (kids: ReadonlyArray<Kid>) => void (published = kids),
    behave: (next: Behaviour) => void (behaviour = next),
    now: () => now,
    fetches: () => started.length,
    outcomes: () => outcomes,
  }
}

const verdictOf = (answer: Promise<unknown>): Promise<Verdict> =>
  answer.then(
    () => 'key' as const,
    (error: unknown) => {
      if (error instanceof UnknownSigningKey) return 'unknown' as const
      if (error instanceof KeySetUnavailable) return 'unavailable' as const
      throw error
    },
  )

describe('when the key set is fetched, and what each token gets, on virtual time', () => {
  let jwks: Readonly<Record<Kid, JWK>>
  before(async () => {
    const publicJwk = async (kid: Kid): Promise<JWK> => ({ ...(await exportJWK((await generateKeyPair('ES256')).publicKey)), kid, alg: 'ES256', use: 'sig' })
    jwks = { a: await publicJwk('a'), b: await publicJwk('b'), stranger: await publicJwk('stranger') }
  })

  it('fetches exactly when the rule lets it, fails a fetch at its time-out, and answers each token as the rules say', async () => {
    await fc.assert(
      fc.asyncProperty(options, fc.array(step, { maxLength: 40, size: 'max' }), async (given, steps) => {
        const virtual = virtualClock()
        const { clock, advanceAsync } = virtual
        const provider = modelProvider(clock, jwks)
        const observed: Array<'ok' | 'failed'> = []
        const keySet = makeRemoteKeySet(
          { _tag: 'Jwks', url: new URL('https://id.example.test/.well-known/jwks.json'), algorithms: ['ES256'], ...given },
          { keySetFetched: (outcome) => observed.push(outcome) },
          () => undefined,
          clock,
          provider.answer,
        )
        const model = modelKeySet(given)
        const keyFor = async (kid: Kid): Promise<unknown> => keySet({ alg: 'ES256', kid }, { payload: '', signature: '', protected: '' })

        // Lets the answers settle; while one waits on a hanging fetch, moves time to its time-out,
        // and no further: it must not have answered a millisecond before.
        const settle = async (answers: Promise<unknown>): Promise<void> => {
          let answered = false
          void answers.finally(() => (answered = true))
          for (let turn = 0; turn < 5 && !answered; turn += 1) await advanceAsync(0)
          while (!answered) {
            const hanging = provider.hanging()
            if (hanging === undefined) return expect.fail('a token waits, and no fetch is under way')
            await advanceAsync(hanging.startedAt + given.timeoutMs - 1 - clock.now())
            expect(answered, 'answered before the fetch timed out').to.equal(false)
            await advanceAsync(1)
            for (let turn = 0; turn < 5 && !answered; turn += 1) await advanceAsync(0)
          }
        }

        for (const [index, at] of steps.entries()) {
          const where = `step ${index} (${JSON.stringify(at)}) at ${model.now()} ms`
          switch (at.kind) {
            case 'advance':
              model.advance(at.ms)
              await advanceAsync(at.ms)
              break
            case 'tokens': {
              const answers = Promise.all(at.kids.map((kid) => verdictOf(keyFor(kid))))
              await settle(answers)
              expect(await answers, where).to.deep.equal(model.verify(at.kids))
              break
            }
            case 'publish':
              model.publish(at.kids)
              provider.publish(at.kids)
              break
            case 'behave':
              model.behave(at.behaviour)
              provider.behave(at.behaviour)
              break
          }
          expect(clock.now(), `${where}: the time`).to.equal(model.now())
          expect(provider.requests(), `${where}: fetches`).to.equal(model.fetches())
          expect(observed, `${where}: what the observer was told`).to.deep.equal(model.outcomes())
        }
      }),
    )
  })
})
