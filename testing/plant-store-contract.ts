import assert from 'node:assert/strict'
import * as E from 'fp-ts/lib/Either.js'
import { INT64_MAX, INT64_MIN, NewPlant, type InsertOutcome, type PlantStore, type StoreError } from '../core/index.js'
import { show, underRule } from './rules.js'
import { cannotRunHere, type ContractCase, type ContractSuite } from './suite.js'

/** An empty store for one case, and how to let go of it afterwards. */
export interface PlantStoreFixture {
  readonly store: PlantStore
  readonly release: () => Promise<void>
  /**
   * Cuts the store off from its storage (stops the server, drops the network), when the adapter's
   * test can: the unavailability rule then runs. Without it, that rule is skipped, with the reason.
   */
  readonly cutOff?: () => Promise<void>
}

/** Makes a fresh, empty store; it may call `cannotRunHere(reason)` when its storage cannot run. */
export type PlantStoreFixtureFactory = () => Promise<PlantStoreFixture>

/**
 * A NewPlant made through the core's codec, as the core hands plants to a store.
 *
 * @example
 * ```ts
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 * import { plantOf } from 'plant-store/testing'
 *
 * await makeInMemoryPlantStore().insertUnlessExists(plantOf(1n, 'Fern', 'outdoor'))()
 * ```
 */
export const plantOf = (id: bigint, name: string, tag?: string): NewPlant => {
  const decoded = NewPlant.decode(tag === undefined ? { id, name } : { id, name, tag })
  if (E.isLeft(decoded)) throw new TypeError(`not a NewPlant: ${show({ id, name, tag })}`)
  return decoded.right
}

const insert = async (store: PlantStore, plant: NewPlant): Promise<InsertOutcome> => {
  const result = await store.insertUnlessExists(plant)()
  if (E.isLeft(result)) assert.fail(`insertUnlessExists(${show(plant)}) answered Left ${show(result.left)}, expected a Right`)
  return result.right
}

const expectStored = async (store: PlantStore, probe: NewPlant, stored: NewPlant): Promise<void> => {
  const outcome = await insert(store, probe)
  assert.deepStrictEqual(
    outcome,
    { _tag: 'AlreadyStored', stored },
    `an insert under id ${probe.id} must answer AlreadyStored with exactly ${show(stored)}; it answered ${show(outcome)}`,
  )
}

// One case: a fresh store from the fixture, the check under its rule, the store released.
const storeCase =
  (fixture: PlantStoreFixtureFactory) =>
  (name: string, rule: string, statement: string, check: (f: PlantStoreFixture) => Promise<void>): ContractCase => ({
    name,
    rule,
    run: async () => {
      const made = await fixture()
      try {
        await underRule(rule, statement, () => check(made))
      } finally {
        await made.release()
      }
    },
  })

const CONTENDERS = 20

// Strings a store must keep to the code unit: astral characters, combining marks, NUL, a
// right-to-left override, the empty string, and a string longer than most column defaults.
const AWKWARD_NAMES: ReadonlyArray<string> = ['Ficus \u{1F331} caf\u00e9 e\u0301 \u0000 \u202e', '', 'x'.repeat(10_000), '\u{10FFFF}\u{1D11E}']

/**
 * The rules every PlantStore must keep, as the core relies on them. `fixture` makes a fresh,
 * empty store for each case.
 *
 * @example
 * ```ts
 * import { describe, it } from 'node:test'
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 * import { plantStoreContract } from 'plant-store/testing'
 * import { registerWithNodeTest } from 'plant-store/testing/node-test'
 *
 * registerWithNodeTest({ describe, it }, plantStoreContract('in-memory', async () => ({ store: makeInMemoryPlantStore(), release: async () => {} })))
 * ```
 */
export const plantStoreContract = (label: string, fixture: PlantStoreFixtureFactory): ContractSuite => {
  const rule = storeCase(fixture)
  return {
    name: `PlantStore contract: ${label}`,
    cases: [
      rule('inserts a plant under a new id and reports it Inserted', 'plant-store/inserts-new', 'a new id answers Inserted with the plant', async ({ store }) => {
        const plant = plantOf(1n, 'Monstera', 'aroid')
        assert.deepStrictEqual(await insert(store, plant), { _tag: 'Inserted', plant })
      }),
      rule(
        `lets exactly one of ${CONTENDERS} concurrent inserts of one id win`,
        'plant-store/one-winner',
        `${CONTENDERS} concurrent inserts of one id answer exactly one Inserted, and AlreadyStored holding the winner's plant for the others`,
        async ({ store }) => {
          const outcomes = await Promise.all(Array.from({ length: CONTENDERS }, (_, i) => insert(store, plantOf(5n, `contender ${i}`))))
          const winners = outcomes.flatMap((o) => (o._tag === 'Inserted' ? [o.plant] : []))
          assert.equal(winners.length, 1, `${winners.length} inserts answered Inserted`)
          for (const o of outcomes) if (o._tag === 'AlreadyStored') assert.deepStrictEqual(o.stored, winners[0], 'a loser was told of another plant than the winner')
          await expectStored(store, plantOf(5n, 'probe'), winners[0] as NewPlant)
        },
      ),
      rule('keeps ids exact over the whole int64 range', 'plant-store/exact-ids', 'every int64 id, the extremes and those around 2^53 included, is kept exactly', async ({ store }) => {
        const ids = [INT64_MIN, INT64_MIN + 1n, -(2n ** 53n) - 1n, -1n, 0n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, INT64_MAX - 1n, INT64_MAX]
        for (const id of ids) {
          const outcome = await insert(store, plantOf(id, `plant ${id}`))
          assert.equal(outcome._tag, 'Inserted', `id ${id} was taken already: ${show(outcome)} (an id rounded to a neighbour?)`)
        }
        for (const id of ids) await expectStored(store, plantOf(id, 'probe'), plantOf(id, `plant ${id}`))
      }),
      rule('keeps names and tags exactly as given', 'plant-store/exact-strings', 'names and tags come back to the code unit, astral, empty and long ones included', async ({ store }) => {
        let id = 100n
        for (const text of AWKWARD_NAMES) {
          id += 1n
          await insert(store, plantOf(id, text, text))
          await expectStored(store, plantOf(id, 'probe'), plantOf(id, text, text))
        }
      }),
      rule(
        'reports what stands under a taken id, tag or no tag, and leaves it unchanged',
        'plant-store/reports-stored',
        'an insert under a taken id answers AlreadyStored with the first plant, unchanged, a tag added or removed included',
        async ({ store }) => {
          const tagged = plantOf(3n, 'Basil', 'herb')
          const bare = plantOf(4n, 'Fern')
          await insert(store, tagged)
          await insert(store, bare)
          for (const [probe, stored] of [
            [plantOf(3n, 'Basil', 'herb'), tagged],
            [plantOf(3n, 'Basil'), tagged],
            [plantOf(3n, 'Mint', 'herb'), tagged],
            [plantOf(4n, 'Fern'), bare],
            [plantOf(4n, 'Fern', 'shade'), bare],
          ] as const) {
            await expectStored(store, probe, stored)
          }
        },
      ),
      rule('reports itself ready', 'plant-store/ready', 'checkReady answers Right when storage can serve', async ({ store }) => {
        const ready = await store.checkReady()()
        assert.ok(E.isRight(ready), `checkReady answered Left ${show(ready)}`)
      }),
      rule(
        'answers unavailability as a Left, never a rejection',
        'plant-store/unavailable-is-a-left',
        'with storage cut off, insertUnlessExists and checkReady resolve to Left StorageUnavailable instead of rejecting',
        async ({ store, cutOff }) => {
          if (cutOff === undefined) return cannotRunHere('the fixture gives no cutOff, so storage cannot be cut off')
          await cutOff()
          for (const [call, task] of [
            ['insertUnlessExists', store.insertUnlessExists(plantOf(6n, 'Fern'))],
            ['checkReady', store.checkReady()],
          ] as const) {
            let answer: E.Either<StoreError, unknown>
            try {
              answer = await task()
            } catch (error) {
              return assert.fail(`${call} rejected with ${show(error)}; a rejection is a defect, and the client gets a 500 for an outage`)
            }
            assert.ok(E.isLeft(answer) && answer.left._tag === 'StorageUnavailable', `${call} answered ${show(answer)}`)
          }
        },
      ),
    ],
  }
}

/**
 * What a store with a bound on what it holds must keep: `fixture` makes an empty store with room
 * for exactly `room` plants such as `plantOf(id, 'p')`. Past the bound, only new ids are refused
 * (StorageFull); what is stored stays, and taken ids are still reported.
 *
 * @example
 * ```ts
 * import { describe, it } from 'node:test'
 * import { makeInMemoryPlantStore } from 'plant-store/adapters/in-memory'
 * import { boundedPlantStoreContract } from 'plant-store/testing'
 * import { registerWithNodeTest } from 'plant-store/testing/node-test'
 *
 * const fixture = async () => ({ store: makeInMemoryPlantStore({ maxPlants: 3 }), release: async () => {} })
 * registerWithNodeTest({ describe, it }, boundedPlantStoreContract('in-memory, 3 plants', 3, fixture))
 * ```
 */
export const boundedPlantStoreContract = (label: string, room: number, fixture: PlantStoreFixtureFactory): ContractSuite => {
  const rule = storeCase(fixture)
  const fill = async (store: PlantStore): Promise<void> => {
    for (let id = 1; id <= room; id += 1) assert.equal((await insert(store, plantOf(BigInt(id), 'p')))._tag, 'Inserted', `filling: id ${id}`)
  }
  const full = async (store: PlantStore, id: bigint): Promise<void> => {
    const answer = await store.insertUnlessExists(plantOf(id, 'p'))()
    assert.ok(E.isLeft(answer) && answer.left._tag === 'StorageFull', `a new id past the bound answered ${show(answer)}, expected Left StorageFull`)
    assert.ok(answer.left.limit !== '', 'StorageFull names its bound')
  }
  return {
    name: `PlantStore contract, bounded: ${label}`,
    cases: [
      rule('refuses a new plant past the bound with StorageFull, naming the bound', 'plant-store/full-for-new-ids', 'past the bound a new id is refused with StorageFull', async ({ store }) => {
        await fill(store)
        await full(store, BigInt(room + 1))
      }),
      rule(
        'still reports taken ids at the bound, and keeps what it holds',
        'plant-store/full-only-for-new-ids',
        'at the bound, taken ids still answer AlreadyStored with their plant, and the store stays ready',
        async ({ store }) => {
          await fill(store)
          for (let attempt = 1; attempt <= 5; attempt += 1) await full(store, BigInt(room + attempt))
          for (let id = 1; id <= room; id += 1) await expectStored(store, plantOf(BigInt(id), 'other'), plantOf(BigInt(id), 'p'))
          assert.ok(E.isRight(await store.checkReady()()), 'a full store is still ready: it serves what it holds')
        },
      ),
    ],
  }
}
