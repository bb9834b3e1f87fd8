import * as E from 'fp-ts/lib/Either.js'
import type { Collection } from 'mongodb'
import {
  alreadyStored,
  delay,
  inserted,
  type Clock,
  type InsertOutcome,
  type NewPlant,
  type PlantId,
  type PlantStore,
} from '../../core/index.js'
import type { MongoConnection, MongoWork } from './connection.js'
import { fromPlantDocument, toPlantDocument, type PlantDocument } from './plant-document.js'
import { checkWritable } from './writable-server.js'
import { ReadConcern, ReadPreference } from './peers.js'

/**
 * A plant store in one MongoDB collection. A create is one document of an `insert` command (shared
 * with the creates arriving with it) that relies on the unique `_id` index, so two creates of one
 * id race inside MongoDB and exactly one wins, however many service instances send them, whether
 * or not they share a command; the loser reads what the winner stored.
 */
export const makeMongoPlantStore = (mongo: MongoConnection, clock: Clock): PlantStore => ({
  insertUnlessExists: (plant, options) => mongo.attempt((on) => insertOrRead(on, plant, clock), options?.withinMs),
  checkReady: () => mongo.probe(({ db, within }) => within((signal) => checkWritable(db, signal))),
})

// The insert goes in a batch with those of other calls (insert-batches.ts); its outcome is its own.
const insertOrRead = async ({ plants, within, insert }: MongoWork, plant: NewPlant, clock: Clock): Promise<InsertOutcome> =>
  (await insert(toPlantDocument(plant))) === 'inserted'
    ? inserted(plant)
    : alreadyStored(await within((signal) => readStored(plants, plant.id, signal, clock)))

/**
 * The plant under a taken id, read from the primary with read concern "majority": what the
 * client is answered is what a majority holds. The insert that took the id may still be waiting
 * for that majority (the unique index sees it already, a majority read not yet), so the read is
 * repeated with a growing pause until it shows, or until the call's deadline aborts it.
 */
const readStored = async (plants: Collection<PlantDocument>, id: PlantId, signal: AbortSignal, clock: Clock): Promise<NewPlant> => {
  for (let pauseMs = 10; ; pauseMs = Math.min(pauseMs * 2, 200)) {
    const found = await plants.findOne({ _id: id }, { readConcern: MAJORITY, readPreference: ReadPreference.primary, signal })
    if (found !== null) return decodeStored(id, found)
    await delay(clock, pauseMs, signal)
  }
}

// Made once: given as plain values, the driver would parse them again on every read.
const MAJORITY = new ReadConcern('majority')

// A document this adapter cannot read is not an outage: it is thrown, for the error boundary.
const decodeStored = (id: PlantId, found: unknown): NewPlant => {
  const decoded = fromPlantDocument(found)
  if (E.isLeft(decoded)) throw new Error(`the document stored under _id ${id} is not a plant`)
  return decoded.right
}
