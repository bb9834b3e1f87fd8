import { expect } from 'chai'
import type { NewPlant, PlantStore } from '../../core/index.js'
import { INT64_MAX, INT64_MIN } from '../../core/index.js'
import { expectLeftTag, expectRight } from '../support/either.js'
import { plant } from '../support/plants.js'

/** How a contract run gets a fresh, empty store, and how it releases it afterwards. */
export interface PlantStoreFixture {
  readonly store: PlantStore
  readonly release: () => Promise<void>
}

/**
 * The behaviour every PlantStore adapter must show, written once. An adapter's test file calls
 * this with a label and a way to make an empty store; `setup` may call `this.skip()` with a
 * reason when the adapter's backing service cannot run on this machine.
 */
export const plantStoreContract = (
  label: string,
  setup: (this: Mocha.Context) => Promise<PlantStoreFixture>,
): void => {
  describe(`PlantStore contract: ${label}`, function () {
    let fixture: PlantStoreFixture | undefined
    const store = (): PlantStore => {
      if (fixture === undefined) throw new Error('the contract fixture was not set up')
      return fixture.store
    }
    const insert = async (p: NewPlant) => expectRight(await store().insertUnlessExists(p)())

    beforeEach(async function () {
      fixture = await setup.call(this)
    })
    afterEach(async function () {
      await fixture?.release()
      fixture = undefined
    })

    it('inserts a plant under a new id and reports it as inserted', async function () {
      const outcome = await insert(plant(1n, 'Monstera', 'aroid'))
      expect(outcome).to.deep.equal({ _tag: 'Inserted', plant: plant(1n, 'Monstera', 'aroid') })
    })

    it('keeps a plant without a tag tagless', async function () {
      await insert(plant(2n, 'Fern'))
      const again = await insert(plant(2n, 'Fern'))
      expect(again).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(2n, 'Fern') })
      expect(again._tag === 'AlreadyStored' && 'tag' in again.stored).to.equal(false)
    })

    it('reports what already stands under a taken id and leaves it unchanged', async function () {
      await insert(plant(3n, 'Basil', 'herb'))
      const outcome = await insert(plant(3n, 'Mint', 'herb'))
      expect(outcome).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(3n, 'Basil', 'herb') })
      const later = await insert(plant(3n, 'Thyme'))
      expect(later).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(3n, 'Basil', 'herb') })
    })

    it('keeps ids exact over the whole int64 range', async function () {
      const ids = [INT64_MIN, -1n, 0n, 2n ** 53n, 2n ** 53n + 1n, INT64_MAX]
      for (const id of ids) await insert(plant(id, `plant ${id}`))
      for (const id of ids) {
        const outcome = await insert(plant(id, 'probe'))
        expect(outcome).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(id, `plant ${id}`) })
      }
    })

    it('tells 2^53 and 2^53 + 1 apart', async function () {
      await insert(plant(2n ** 53n, 'even'))
      const outcome = await insert(plant(2n ** 53n + 1n, 'odd'))
      expect(outcome._tag).to.equal('Inserted')
    })

    it('stores Unicode names and tags exactly as given', async function () {
      const name = 'Ficus \u{1F331} caf\u00e9 e\u0301 \u0000 \u202e'
      await insert(plant(4n, name, '\u{10FFFF}'))
      const outcome = await insert(plant(4n, 'probe'))
      expect(outcome).to.deep.equal({ _tag: 'AlreadyStored', stored: plant(4n, name, '\u{10FFFF}') })
    })

    it('lets exactly one of many concurrent inserts of one id win', async function () {
      const attempts = Array.from({ length: 20 }, (_, i) => plant(5n, `contender ${i}`))
      const outcomes = await Promise.all(attempts.map(insert))
      const winners = outcomes.filter((o) => o._tag === 'Inserted')
      expect(winners).to.have.length(1)
      const winner = winners[0]?._tag === 'Inserted' ? winners[0].plant : undefined
      for (const o of outcomes) {
        if (o._tag === 'AlreadyStored') expect(o.stored).to.deep.equal(winner)
      }
    })

    it('reports itself ready', async function () {
      expectRight(await store().checkReady()())
    })
  })
}

/**
 * What a store with a bound on what it holds promises, for adapters that have one: `setup` makes
 * an empty store with room for exactly `room` plants such as `plant(id, 'p')`. Reaching the bound
 * refuses new plants as StorageFull, and changes nothing else: what is stored stays, replays and
 * look-ups of taken ids are still answered.
 */
export const boundedPlantStoreContract = (
  label: string,
  room: number,
  setup: (this: Mocha.Context) => Promise<PlantStoreFixture>,
): void => {
  describe(`PlantStore contract, bounded: ${label}`, function () {
    let fixture: PlantStoreFixture | undefined
    const store = (): PlantStore => {
      if (fixture === undefined) throw new Error('the contract fixture was not set up')
      return fixture.store
    }
    const fill = async (): Promise<void> => {
      for (let id = 1; id <= room; id += 1) {
        expect(expectRight(await store().insertUnlessExists(plant(BigInt(id), 'p'))())._tag).to.equal('Inserted')
      }
    }

    beforeEach(async function () {
      fixture = await setup.call(this)
    })
    afterEach(async function () {
      await fixture?.release()
      fixture = undefined
    })

    it('refuses a new plant past the bound with StorageFull, naming the bound', async function () {
      await fill()
      const full = expectLeftTag(await store().insertUnlessExists(plant(BigInt(room + 1), 'p'))(), 'StorageFull')
      expect(full.limit).to.be.a('string').and.not.equal('')
    })

    it('still answers a replay, and what stands under a taken id, at the bound', async function () {
      await fill()
      expect(expectRight(await store().insertUnlessExists(plant(1n, 'p'))())).to.deep.equal({
        _tag: 'AlreadyStored',
        stored: plant(1n, 'p'),
      })
      expect(expectRight(await store().insertUnlessExists(plant(BigInt(room), 'other'))())).to.deep.equal({
        _tag: 'AlreadyStored',
        stored: plant(BigInt(room), 'p'),
      })
    })

    it('keeps every plant stored before the bound, and stays ready', async function () {
      await fill()
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expectLeftTag(await store().insertUnlessExists(plant(BigInt(room + 1 + attempt), 'p'))(), 'StorageFull')
      }
      for (let id = 1; id <= room; id += 1) {
        expect(expectRight(await store().insertUnlessExists(plant(BigInt(id), 'p'))())._tag).to.equal('AlreadyStored')
      }
      expectRight(await store().checkReady()())
    })
  })
}
