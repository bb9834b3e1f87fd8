import { expect } from 'chai'
import fc from 'fast-check'
import { makeInMemoryPlantStore, type InMemoryPlantStore } from '../../../adapters/in-memory/index.js'
import { createNewPlant, createPlant, newPlant, type PlantStore, type Principal } from '../../../core/index.js'
import { int64, newPlantInput } from '../../support/arbitraries.js'
import { expectLeftTag, expectRight } from '../../support/either.js'
import { principalFor, storedUnder, unavailablePlantStore } from '../../support/fakes.js'
import { plant } from '../../support/plants.js'
import { propertyRuns } from '../../support/property-runs.js'

describe('createPlant', function () {
  let principal: Principal
  let store: PlantStore
  let memory: InMemoryPlantStore
  const create = (input: unknown) => createPlant({ plantStore: store })(principal, input)()

  before(async function () {
    principal = await principalFor({ subject: 'gardener', scopes: [] })
  })
  beforeEach(function () {
    store = memory = makeInMemoryPlantStore()
  })

  describe('a new id', function () {
    it('stores the plant and answers it with its tag', async function () {
      expect(expectRight(await create({ id: 1n, name: 'Monstera', tag: 'aroid' }))).to.deep.equal({
        name: 'Monstera',
        tag: 'aroid',
      })
      expect(await storedUnder(memory, 1n)).to.deep.equal(plant(1n, 'Monstera', 'aroid'))
    })

    it('stores a plant without a tag and answers exactly {name}', async function () {
      const created = expectRight(await create({ id: 2n, name: 'Fern' }))
      expect(created).to.deep.equal({ name: 'Fern' })
      expect(Object.keys(created)).to.deep.equal(['name'])
      expect(await storedUnder(memory, 2n)).to.deep.equal(plant(2n, 'Fern'))
    })

    it('neither stores nor answers undeclared fields', async function () {
      const created = expectRight(await create({ id: 3n, name: 'Basil', owner: 'me', id2: 4n }))
      expect(created).to.deep.equal({ name: 'Basil' })
      expect(await storedUnder(memory, 3n)).to.deep.equal(plant(3n, 'Basil'))
    })

    it('stores any int64 id and any well-formed name and tag exactly', async function () {
      await fc.assert(
        fc.asyncProperty(newPlantInput, async (input) => {
          store = memory = makeInMemoryPlantStore()
          const { id, ...shown } = input
          expect(expectRight(await create(input))).to.deep.equal(shown)
          expect(await storedUnder(memory, id)).to.deep.equal(plant(id, input.name, input.tag))
        }),
        { numRuns: propertyRuns(100) },
      )
    })

    it('keeps 2^53 and 2^53 + 1 as two plants', async function () {
      expectRight(await create({ id: 2n ** 53n, name: 'even' }))
      expectRight(await create({ id: 2n ** 53n + 1n, name: 'odd' }))
      expect(await storedUnder(memory, 2n ** 53n)).to.deep.equal(plant(2n ** 53n, 'even'))
      expect(await storedUnder(memory, 2n ** 53n + 1n)).to.deep.equal(plant(2n ** 53n + 1n, 'odd'))
    })
  })

  describe('a taken id', function () {
    it('answers the stored plant when the same plant is created again, and changes nothing', async function () {
      await fc.assert(
        fc.asyncProperty(newPlantInput, async (input) => {
          store = memory = makeInMemoryPlantStore()
          const first = expectRight(await create(input))
          const replay = expectRight(await create({ ...input, note: 'undeclared fields do not matter' }))
          expect(replay).to.deep.equal(first)
          expect(await storedUnder(memory, input.id)).to.deep.equal(plant(input.id, input.name, input.tag))
        }),
        { numRuns: propertyRuns(100) },
      )
    })

    for (const [label, first, second] of [
      ['another name', { name: 'Basil', tag: 'herb' }, { name: 'Mint', tag: 'herb' }],
      ['another tag', { name: 'Basil', tag: 'herb' }, { name: 'Basil', tag: 'spice' }],
      ['a tag where there was none', { name: 'Basil' }, { name: 'Basil', tag: 'herb' }],
      ['no tag where there was one', { name: 'Basil', tag: 'herb' }, { name: 'Basil' }],
      ['an empty tag where there was none', { name: 'Basil' }, { name: 'Basil', tag: '' }],
      ['a name that differs only in Unicode normalisation', { name: 'caf\u00e9' }, { name: 'cafe\u0301' }],
    ] as const) {
      it(`answers PlantConflict for ${label}, and keeps the first plant`, async function () {
        const id = 9n
        expectRight(await create({ id, ...first }))
        const conflict = expectLeftTag(await create({ id, ...second }), 'PlantConflict')
        expect(conflict).to.deep.equal({ _tag: 'PlantConflict', id })
        expect(await storedUnder(memory, id)).to.deep.equal(plant(id, first.name, 'tag' in first ? first.tag : undefined))
      })
    }

    it('lets exactly one of many concurrent creates of one id win; the rest replay or conflict', async function () {
      await fc.assert(
        fc.asyncProperty(
          int64,
          fc.array(fc.record({ name: fc.constantFrom('a', 'b', 'c'), tag: fc.constantFrom('x', 'y') }), {
            minLength: 2,
            maxLength: 12,
          }),
          async (id, contenders) => {
            store = memory = makeInMemoryPlantStore()
            const results = await Promise.all(contenders.map((contender) => create({ id, ...contender })))
            const winner = await storedUnder(memory, id)
            expect(contenders).to.deep.include({ name: winner?.name, tag: winner?.tag })
            results.forEach((result, index) => {
              const contender = contenders[index]
              if (contender?.name === winner?.name && contender?.tag === winner?.tag) {
                expect(expectRight(result)).to.deep.equal(contender)
              } else {
                expect(expectLeftTag(result, 'PlantConflict').id).to.equal(id)
              }
            })
          },
        ),
        { numRuns: propertyRuns(100) },
      )
    })
  })

  describe('invalid input', function () {
    it('answers InvalidInput naming every wrong field, and stores nothing', async function () {
      const invalid = expectLeftTag(await create({ id: 5n, name: 7, tag: null }), 'InvalidInput')
      expect(invalid.violations.map((v) => v.path)).to.deep.equal(['name', 'tag'])
      expect(await storedUnder(memory, 5n)).to.equal(undefined)
    })

    it('refuses a JS number as the id and stores nothing under it', async function () {
      const invalid = expectLeftTag(await create({ id: 6, name: 'x' }), 'InvalidInput')
      expect(invalid.violations.map((v) => v.path)).to.deep.equal(['id'])
      expect(await storedUnder(memory, 6n)).to.equal(undefined)
    })

    it('refuses a lone surrogate in the name and stores nothing', async function () {
      const invalid = expectLeftTag(await create({ id: 7n, name: 'x\uDC00' }), 'InvalidInput')
      expect(invalid.violations.map((v) => v.path)).to.deep.equal(['name'])
      expect(await storedUnder(memory, 7n)).to.equal(undefined)
    })

    it('does not let an invalid create disturb the plant under its id', async function () {
      expectRight(await create({ id: 8n, name: 'Aloe' }))
      expectLeftTag(await create({ id: 8n, name: 'Aloe', tag: 1 }), 'InvalidInput')
      expect(await storedUnder(memory, 8n)).to.deep.equal(plant(8n, 'Aloe'))
    })

    it('refuses input before asking storage: an unavailable store still answers InvalidInput', async function () {
      store = unavailablePlantStore(new Error('down'))
      const invalid = expectLeftTag(await create({ name: 'x' }), 'InvalidInput')
      expect(invalid.violations.map((v) => v.path)).to.deep.equal(['id'])
    })

    it('stores a plant given tag: undefined without a tag field', async function () {
      expect(expectRight(await create({ id: 10n, name: 'x', tag: undefined }))).to.deep.equal({ name: 'x' })
      const stored = await storedUnder(memory, 10n)
      expect(stored).to.deep.equal(plant(10n, 'x'))
      expect(Object.keys(stored ?? {})).to.deep.equal(['id', 'name'])
    })

    it('answers input whose fields cannot be read with a value, and builds the task without running it', async function () {
      const hostile = {
        get id(): bigint {
          throw new Error('getter')
        },
        name: 'x',
      }
      const task = createPlant({ plantStore: store })(await principalFor({ subject: 'x', scopes: [] }), hostile)
      expectLeftTag(await task(), 'InvalidInput')
      expect(memory.all()).to.deep.equal([])
    })

    it('does not store a plant whose fields are inherited rather than its own', async function () {
      const result = await create(Object.create({ id: 11n, name: 'x' }) as unknown)
      expectLeftTag(result, 'InvalidInput')
      expect(await storedUnder(memory, 11n)).to.equal(undefined)
    })
  })

  describe('storage unavailable', function () {
    it('answers the StorageUnavailable the store reported, cause and all', async function () {
      const cause = new Error('connection refused')
      store = unavailablePlantStore(cause)
      const error = expectLeftTag(await create({ id: 1n, name: 'x' }), 'StorageUnavailable')
      expect(error.cause).to.equal(cause)
    })
  })

  describe('the typed entry: newPlant and createNewPlant', function () {
    it('builds a NewPlant from typed fields and creates it', async function () {
      const fields = expectRight(newPlant({ id: 2n ** 63n - 1n, name: 'Monstera', tag: 'aroid' }))
      expect(expectRight(await createNewPlant({ plantStore: store })(principal, fields)())).to.deep.equal({
        name: 'Monstera',
        tag: 'aroid',
      })
      expect(await storedUnder(memory, 2n ** 63n - 1n)).to.deep.equal(plant(2n ** 63n - 1n, 'Monstera', 'aroid'))
    })

    it('replays the same NewPlant and answers PlantConflict for another under its id', async function () {
      const create = createNewPlant({ plantStore: store })
      expectRight(await create(principal, expectRight(newPlant({ id: 1n, name: 'Fern' })))())
      expect(expectRight(await create(principal, expectRight(newPlant({ id: 1n, name: 'Fern', tag: undefined })))())).to.deep.equal({
        name: 'Fern',
      })
      expect(expectLeftTag(await create(principal, expectRight(newPlant({ id: 1n, name: 'Ivy' })))(), 'PlantConflict').id).to.equal(1n)
    })

    it('names each field that breaks a rule the types cannot state', function () {
      const invalid = expectLeftTag(newPlant({ id: 2n ** 63n, name: 'x\uD800', tag: '\uDC00' }), 'InvalidInput')
      expect(invalid.violations.map((v) => v.path)).to.deep.equal(['id', 'name', 'tag'])
    })

    it('says that an id given as a JS number must be a bigint', async function () {
      const invalid = expectLeftTag(await create({ id: 42, name: 'x' }), 'InvalidInput')
      expect(invalid.violations).to.have.length(1)
      expect(invalid.violations[0]?.path).to.equal('id')
      expect(invalid.violations[0]?.expected).to.include('as a bigint, not a JS number')
    })
  })
})
