import { expect } from 'chai'
import fc from 'fast-check'
import { connectionToClose, STALLED_AFTER_MS, type ConnectionView } from '../../../../../adapters/http/server/admission.js'
import { clientOf } from '../../../../../adapters/http/context/client-networks.js'
import { propertyRuns } from '../../../../support/property-runs.js'
import { virtualClock } from '../../../../support/virtual-clock.js'

// The admission rule of docs/limits.md ("At the connection cap") as an oracle, over generated
// populations on a virtual clock: addresses (IPv4, and IPv6 /64s of a few /48s), connections per
// address, each connection's state, and the order newcomers arrive in. At the cap a newcomer is
// admitted whenever some connection waits on its client; the one closed is the longest-waiting
// connection of the client holding the most waiting connections; one the server works for is never
// closed for a newcomer.

// What a connection is doing, as the rule's sentence names it, and since when.
type State =
  | { readonly tag: 'silent' | 'idle' | 'half-head' | 'body' | 'unread'; readonly since: number }
  | { readonly tag: 'working' | 'answer-moving' | 'closing' }

interface ModelConnection {
  readonly id: number
  readonly address: Address
  readonly state: State
}

// An address as its numbers: IPv4's four octets, or IPv6's /48 (three groups) and the /64's fourth.
type Address = { readonly v4: number } | { readonly site: number; readonly subnet: number }

const written = (address: Address): string =>
  'v4' in address ? `198.51.100.${address.v4}` : `2001:db8:${address.site.toString(16)}:${address.subnet.toString(16)}::1`
// The client as the rule's sentence counts it, computed apart from the code under test.
const clientName = (address: Address): string => ('v4' in address ? `v4 ${address.v4}` : `site ${address.site}`)

// The oracle's reading of "waiting on its client", and since when.
const waitingSinceOf = (state: State): number | undefined => ('since' in state ? state.since : undefined)

// What the code under test sees of a model connection.
const viewOf =
  (now: number) =>
  ({ address, state }: ModelConnection): ConnectionView => {
    const base = { client: clientOf({ remoteAddress: written(address) }).key, closing: false, unsentBytes: 0, movedAt: now, owed: 0, bodyAwaited: false, idleSince: now, heardAt: now }
    switch (state.tag) {
      case 'silent':
      case 'idle':
      case 'half-head':
        return { ...base, idleSince: state.since }
      case 'body':
        return { ...base, owed: 1, bodyAwaited: true, heardAt: state.since, idleSince: state.since - 1_000 }
      case 'unread':
        return { ...base, unsentBytes: 64 * 1024, movedAt: state.since, owed: 1 }
      case 'working':
        return { ...base, owed: 1, idleSince: now - 5_000 }
      case 'answer-moving':
        return { ...base, unsentBytes: 1_000, movedAt: now, owed: 1, idleSince: now - 5_000 }
      case 'closing':
        return { ...base, closing: true, idleSince: now - 60_000 }
    }
  }

const address: fc.Arbitrary<Address> = fc.oneof(
  fc.record({ v4: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ site: fc.integer({ min: 1, max: 3 }), subnet: fc.integer({ min: 0, max: 400 }) }),
)
const stateAt = (now: number): fc.Arbitrary<State> =>
  fc.oneof(
    fc.record({ tag: fc.constantFrom('silent', 'idle', 'half-head', 'body'), since: fc.integer({ min: 0, max: now }) }) as fc.Arbitrary<State>,
    // Answers unread: only once they stopped moving for a while do they wait on the client.
    fc.record({ tag: fc.constant('unread'), since: fc.integer({ min: 0, max: now - STALLED_AFTER_MS }) }) as fc.Arbitrary<State>,
    fc.record({ tag: fc.constantFrom('working', 'answer-moving', 'closing') }) as fc.Arbitrary<State>,
  )

const START_MS = 60_000

const scenario = fc.record({
  cap: fc.integer({ min: 1, max: 40 }),
  population: fc.array(fc.record({ address, count: fc.integer({ min: 1, max: 3 }), states: fc.array(stateAt(START_MS), { minLength: 3, maxLength: 3 }) }), {
    minLength: 1,
    maxLength: 30,
  }),
  newcomers: fc.array(fc.record({ address, gapMs: fc.integer({ min: 0, max: 2_000 }), sendsAtOnce: fc.boolean() }), { minLength: 1, maxLength: 30 }),
})

describe('the admission rule at the connection cap, against its sentence', function () {
  it('closes the longest-waiting connection of the client holding the most waiting, never one the server works for', function () {
    fc.assert(
      fc.property(scenario, ({ cap, population, newcomers }) => {
        const time = virtualClock()
        time.advance(START_MS)
        let nextId = 0
        let open: ModelConnection[] = population
          .flatMap(({ address: at, count, states }) => states.slice(0, count).map((state) => ({ id: nextId++, address: at, state })))
          .slice(0, cap)
        for (const { address: at, gapMs, sendsAtOnce } of newcomers) {
          time.advance(gapMs)
          const now = time.clock.now()
          if (open.length >= cap) {
            const chosen = connectionToClose(open, viewOf(now), now)
            const waiting = open.filter((connection) => waitingSinceOf(connection.state) !== undefined)
            if (waiting.length === 0) {
              expect(chosen, 'none closed when the server works for every connection').to.equal(undefined)
              continue
            }
            expect(chosen, 'a waiting connection gives way').to.not.equal(undefined)
            const picked = chosen as ModelConnection
            const since = waitingSinceOf(picked.state)
            expect(since, 'the one closed is waiting on its client').to.not.equal(undefined)
            const byClient = new Map<string, number[]>()
            for (const connection of waiting) byClient.set(clientName(connection.address), [...(byClient.get(clientName(connection.address)) ?? []), waitingSinceOf(connection.state) as number])
            const mine = byClient.get(clientName(picked.address)) ?? []
            for (const [client, sinces] of byClient) {
              expect(sinces.length, `${client} holds no more waiting connections than the one closed for`).to.be.at.most(mine.length)
              if (sinces.length === mine.length) expect(Math.min(...sinces), `of clients holding as many, ${client}'s waited no longer`).to.be.at.least(Math.min(...mine))
            }
            expect(since, "the longest-waiting of its client's").to.equal(Math.min(...mine))
            open = open.filter((connection) => connection !== picked)
          }
          // The newcomer is silent since now, or the server is at work on its request at once.
          open.push({ id: nextId++, address: at, state: sendsAtOnce ? { tag: 'working' } : { tag: 'silent', since: now } })
        }
      }),
      { numRuns: propertyRuns(200) },
    )
  })

  // The table's lock-out: a thousand addresses holding one idle connection each, beside a
  // legitimate client: each of its newcomers is admitted (and sends its request at once), and the
  // one closed for it is the longest idle.
  it('admits a newcomer beside a thousand addresses holding one idle connection each', function () {
    const time = virtualClock()
    const open: Array<{ readonly address: string; idleSince: number }> = []
    for (let i = 0; i < 1_000; i += 1) {
      time.advance(4)
      open.push({ address: `127.1.${i >> 8}.${i & 0xff}`, idleSince: time.clock.now() })
    }
    const view = (connection: (typeof open)[number]): ConnectionView => ({
      client: clientOf({ remoteAddress: connection.address }).key,
      closing: false,
      unsentBytes: 0,
      movedAt: 0,
      owed: 0,
      bodyAwaited: false,
      idleSince: connection.idleSince,
      heardAt: 0,
    })
    for (let newcomer = 0; newcomer < 10; newcomer += 1) {
      time.advance(100)
      const chosen = connectionToClose(open, view, time.clock.now())
      expect(chosen, 'the longest idle gives way').to.equal(open[0])
      open.splice(0, 1)
    }
  })
})
