import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { INT64_MAX, INT64_MIN } from '../../../../core/index.js'
import { calculateObjectSize } from 'bson'
import { fromPlantDocument, MAX_PLANT_BODY_BYTES, toPlantDocument } from '../../../../adapters/mongodb/plant-document.js'
import { expectRight } from '../../../support/either.js'
import { plant } from '../../../support/plants.js'

describe('the MongoDB plant document', function () {
  it('puts the id in _id and keeps a missing tag missing', function () {
    expect(toPlantDocument(plant(INT64_MIN, 'Fern'))).to.deep.equal({ _id: INT64_MIN, name: 'Fern' })
    expect(toPlantDocument(plant(INT64_MAX, 'Aloe', 'succulent'))).to.deep.equal({
      _id: INT64_MAX,
      name: 'Aloe',
      tag: 'succulent',
    })
  })

  it('reads back exactly the plant it was made from', function () {
    for (const p of [plant(INT64_MIN, 'Fern'), plant(2n ** 53n + 1n, 'Aloe', 'succulent'), plant(0n, '\u{1F331}', '')]) {
      expect(expectRight(fromPlantDocument(toPlantDocument(p)))).to.deep.equal(p)
    }
  })

  it('reads an _id another tool stored as an int32 or an integral double', function () {
    expect(expectRight(fromPlantDocument({ _id: 42, name: 'Ivy' }))).to.deep.equal(plant(42n, 'Ivy'))
  })

  it('ignores fields the adapter did not write', function () {
    expect(expectRight(fromPlantDocument({ _id: 1n, name: 'Ivy', createdAt: new Date(0) }))).to.deep.equal(
      plant(1n, 'Ivy'),
    )
  })

  it('refuses a document that holds no plant', function () {
    const notPlants: unknown[] = [
      null,
      { name: 'no id' },
      { _id: 1.5, name: 'fractional id' },
      { _id: 2 ** 53, name: 'a double past 2^53 may already be rounded' },
      { _id: 'seven', name: 'string id' },
      { _id: 1n, name: 42 },
      { _id: 1n, name: 'Ivy', tag: null },
      { _id: 1n, name: 'lone \uD800 surrogate' },
    ]
    for (const document of notPlants) expect(E.isLeft(fromPlantDocument(document)), String(document)).to.equal(true)
  })

  it('fits in one MongoDB document (16 MiB) for every body within MAX_PLANT_BODY_BYTES, and not for a 16 MiB one', function () {
    const MONGOD_MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024
    // The shortest JSON framing of a plant with both strings, a one-digit id (8 bytes in the
    // document), and no escapes: the JSON text shortest beside its document.
    const framing = (name: string, tag: string): string => `{"id":0,"name":"${name}","tag":"${tag}"}`
    const fill = (bodyBytes: number): { name: string; tag: string } => {
      const room = bodyBytes - Buffer.byteLength(framing('', ''))
      return { name: 'n'.repeat(Math.ceil(room / 2)), tag: 't'.repeat(Math.floor(room / 2)) }
    }
    const within = fill(MAX_PLANT_BODY_BYTES)
    expect(Buffer.byteLength(framing(within.name, within.tag))).to.equal(MAX_PLANT_BODY_BYTES)
    expect(calculateObjectSize(toPlantDocument(plant(0n, within.name, within.tag)))).to.be.at.most(MONGOD_MAX_BSON_OBJECT_SIZE)
    const over = fill(MONGOD_MAX_BSON_OBJECT_SIZE)
    expect(calculateObjectSize(toPlantDocument(plant(0n, over.name, over.tag)))).to.be.above(MONGOD_MAX_BSON_OBJECT_SIZE)
  })
})
