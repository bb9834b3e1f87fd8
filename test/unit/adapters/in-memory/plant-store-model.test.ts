import { expect } from 'chai'
import fc from 'fast-check'
import { INT64_MAX, INT64_MIN, type NewPlant } from '../../../../core/index.js'
import { estimatedBytes, makeInMemoryPlantStore, type InMemoryLimits } from '../../../../adapters/in-memory/index.js'
import { int64, wellFormedText } from '../../../support/arbitraries.js'
import { plant } from '../../../support/plants.js'
import { propertyRuns } from '../../../support/property-runs.js'

// The store against the simplest store there is: a Map in insertion order, with the bounds
// counted as the store documents them. Every outcome, `find` and `all()` must agree with it.
interface Model {
  readonly plants: Map<bigint, NewPlant>
  bytes: number
}

type Outcome =
  | { readonly _tag: 'Right'; readonly right: { readonly _tag: 'Inserted'; readonly plant: NewPlant } | { readonly _tag: 'AlreadyStored'; readonly stored: NewPlant } }
  | { readonly _tag: 'Left'; readonly left: { readonly _tag: 'StorageFull'; readonly limit: string } }

const expected = (model: Model, limits: InMemoryLimits, candidate: NewPlant): Outcome => {
  const stored = model.plants.get(candidate.id)
  if (stored !== undefined) return { _tag: 'Right', right: { _tag: 'AlreadyStored', stored } }
  const size = estimatedBytes(candidate)
  if (model.plants.size >= limits.maxPlants) return { _tag: 'Left', left: { _tag: 'StorageFull', limit: `${limits.maxPlants} plants` } }
  if (model.bytes + size > limits.maxBytes) return { _tag: 'Left', left: { _tag: 'StorageFull', limit: `${limits.maxBytes} bytes` } }
  model.plants.set(candidate.id, candidate)
  model.bytes += size
  return { _tag: 'Right', right: { _tag: 'Inserted', plant: candidate } }
}

// Ids a hash table gets wrong first: the int64 edges, and ids alike in their low or high 32 bits
// or their low 8 bits.
const EDGE_IDS = [INT64_MIN, INT64_MIN + 1n, -1n, 0n, 1n, INT64_MAX - 1n, INT64_MAX, 2n ** 32n, -(2n ** 32n), 2n ** 31n, -(2n ** 31n)]
const id = fc.oneof(
  { arbitrary: int64, weight: 4 },
  { arbitrary: fc.constantFrom(...EDGE_IDS), weight: 1 },
  { arbitrary: fc.integer({ min: -64, max: 64 }).map((k) => BigInt(k) * 2n ** 32n + 7n), weight: 2 },
  { arbitrary: fc.integer({ min: -64, max: 64 }).map((k) => BigInt(k) * 256n + 5n), weight: 2 },
  { arbitrary: fc.integer({ min: 0, max: 64 }).map((k) => (2n ** 32n - 1n) * 2n ** 32n + BigInt(k) - 2n ** 63n), weight: 1 },
)

// Names and tags: any well-formed text (astral, combining, U+0000 included), and now and then one
// long enough to run across the store's text buffers.
const text = fc.oneof(
  { arbitrary: wellFormedText, weight: 20 },
  { arbitrary: fc.tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }), fc.integer({ min: 1000, max: 30_000 })).map(([unit, n]) => unit.repeat(n)), weight: 1 },
)
// No tag, an empty tag, or a tag: the empty one is a tag and must not read back as none.
const tag = fc.oneof(fc.constant(undefined), fc.constant(''), text)

const step = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('new' as const), id, name: text, tag }), weight: 6 },
  // A plant stored (or tried) before, sent again as it was.
  { arbitrary: fc.record({ kind: fc.constant('replay' as const), pick: fc.nat() }), weight: 2 },
  // An id used before, with another name or tag (a tag added, removed or emptied).
  { arbitrary: fc.record({ kind: fc.constant('conflict' as const), pick: fc.nat(), name: text, tag }), weight: 2 },
)
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never

const limitsArbitrary = fc.oneof(
  fc.constant({ maxPlants: 1_000_000, maxBytes: 1024 ** 3 }),
  fc.record({ maxPlants: fc.integer({ min: 0, max: 40 }), maxBytes: fc.constant(1024 ** 3) }),
  fc.record({ maxPlants: fc.constant(1_000_000), maxBytes: fc.integer({ min: 0, max: 4000 }) }),
)

// A replay or conflict before anything was tried stands for a first plant.
const candidateOf = (s: Step, tried: ReadonlyArray<NewPlant>): NewPlant => {
  if (s.kind === 'new') return plant(s.id, s.name, s.tag)
  const earlier = tried[s.pick % Math.max(1, tried.length)]
  if (earlier === undefined) return plant(0n, 'first')
  return s.kind === 'replay' ? { ...earlier } : plant(earlier.id, s.name, s.tag)
}

const checkAgainstModel = async (limits: InMemoryLimits, steps: ReadonlyArray<Step>, bulk: ReadonlyArray<NewPlant> = []): Promise<void> => {
  const store = makeInMemoryPlantStore(limits)
  const model: Model = { plants: new Map(), bytes: 0 }
  const tried: NewPlant[] = []
  const run = async (candidate: NewPlant): Promise<void> => {
    tried.push(candidate)
    const want = expected(model, limits, candidate)
    expect(await store.insertUnlessExists(candidate)()).to.deep.equal(want)
  }
  for (const candidate of bulk) await run(candidate)
  for (const s of steps) await run(candidateOf(s, tried))
  for (const [storedId, stored] of model.plants) expect(store.find(storedId)).to.deep.equal(stored)
  for (const candidate of tried) if (!model.plants.has(candidate.id)) expect(store.find(candidate.id)).to.equal(undefined)
  for (const outside of [INT64_MAX + 1n, INT64_MIN - 1n, 2n ** 64n, 2n ** 64n + 1n]) expect(store.find(outside)).to.equal(undefined)
  expect(store.all()).to.deep.equal([...model.plants.values()])
}

// Many plants from one seed, so that a counterexample is a number rather than the plants: random
// int64 ids, half of them sharing their low 32 bits with each other; names of 5-30 code points,
// astral ones among them; half with a tag.
const bulkOfPlants = (seed: number, count: number): NewPlant[] => {
  let state = seed | 1
  const next = (): number => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return state >>> 0
  }
  const codePoint = (): string => String.fromCodePoint(next() % 4 === 0 ? 0x10000 + (next() % 0xfffff) : 0x20 + (next() % 0xd7df))
  const textOf = (length: number): string => Array.from({ length }, codePoint).join('')
  return Array.from({ length: count }, (_, i) => {
    const high = BigInt(next() | 0) << 32n
    const id = BigInt.asIntN(64, high | BigInt(i % 2 === 0 ? next() : 0x1234))
    return plant(id, textOf(5 + (next() % 26)), next() % 2 === 0 ? textOf(next() % 8) : undefined)
  })
}

describe('in-memory store against a Map model', function () {
  this.timeout(60_000)

  it('agrees on every outcome, find and all(): new ids, replays, conflicts, edge ids, awkward text, both bounds', async function () {
    await fc.assert(
      fc.asyncProperty(limitsArbitrary, fc.array(step, { maxLength: 60 }), (limits, steps) => checkAgainstModel(limits, steps)),
      { numRuns: propertyRuns(200) },
    )
  })

  // 16,000 plants over the table's 256 shards, about 62 each: every shard grows from its first 16
  // slots at least twice (at 12 and 24 ids), most of them three times. Each run costs about a
  // second, so `npm test` makes one, and PROPERTY_RUNS more.
  it('agrees after thousands of plants, enough for every shard of its id table to grow more than once', async function () {
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.array(step, { maxLength: 200 }), async (seed, steps) => {
        await checkAgainstModel({ maxPlants: 1_000_000, maxBytes: 1024 ** 3 }, steps, bulkOfPlants(seed, 16_000))
      }),
      { numRuns: propertyRuns(1) },
    )
  })

  it('keeps an empty tag apart from no tag, and a replay of either is a replay', async function () {
    const store = makeInMemoryPlantStore()
    await store.insertUnlessExists(plant(1n, 'Fern', ''))()
    await store.insertUnlessExists(plant(2n, 'Fern'))()
    expect(store.find(1n)).to.deep.equal(plant(1n, 'Fern', ''))
    expect(store.find(2n)).to.deep.equal(plant(2n, 'Fern'))
    expect(store.find(2n)).not.to.have.property('tag')
    expect(store.all()).to.deep.equal([plant(1n, 'Fern', ''), plant(2n, 'Fern')])
  })
})
