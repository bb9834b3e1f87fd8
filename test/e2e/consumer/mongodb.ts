// A consumer of the MongoDB adapter, type-checked and run by test/e2e/package-install.test.ts.
// openMongoPlantStore connects on first use, so nothing here reaches a server.
import * as E from 'fp-ts/lib/Either.js'
import { openMongoPlantStore, type MongoPlantStore } from 'plant-store/adapters/mongodb'
import type { PlantStore } from 'plant-store/core'

const refused = openMongoPlantStore({ uri: 'not a connection string', dbName: 'plant_store' })
console.log(E.isLeft(refused) ? 'refused a bad uri' : 'accepted a bad uri')

const opened = openMongoPlantStore({
  uri: 'mongodb://127.0.0.1:27017/?replicaSet=rs0',
  dbName: 'plant_store',
  timeouts: { operationMs: 2000 },
})
if (E.isRight(opened)) {
  const mongo: MongoPlantStore = opened.right
  const store: PlantStore = mongo.store
  console.log(typeof store.insertUnlessExists === 'function' ? 'opened without connecting' : 'no store')
  await mongo.close()
}
