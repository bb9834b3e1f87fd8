import { cannotRunHere } from '../../../../testing/index.js'
import { plantStoreContract } from '../../../contract/plant-store.contract.js'
import { mongodbRequired, startRealMongo, type RealMongo } from '../../../support/mongodb/real-mongod.js'
import { serviceContract } from '../../../contract/mongodb/service.contract.js'
import { storedFormatContract } from '../../../contract/mongodb/stored-format.contract.js'
import { storedDocuments, storeOnFreshDatabase } from '../../../support/mongodb/support.js'
import { reportPending } from '../../../support/pending.js'

describe('MongoDB adapter on a real mongod', function () {
  let mongo: RealMongo | undefined

  // The first run may download a mongod of some 100 MB before starting it.
  before(async function () {
    this.timeout(300_000)
    try {
      mongo = await startRealMongo()
    } catch (error) {
      if (mongodbRequired()) throw error
      reportPending('MongoDB adapter on a real mongod (REQUIRE_MONGODB=1 makes this a failure)', error)
    }
  })
  after(async function () {
    this.timeout(60_000)
    await mongo?.stop()
  })

  const serverUri = function (this: Mocha.Context): string {
    if (mongo === undefined) this.skip()
    return mongo.uri
  }

  // Production deadlines: a real server is not slowed down on purpose here.
  plantStoreContract('MongoDB on a real mongod', async () =>
    mongo === undefined ? cannotRunHere('no mongod could be started here (see above)') : storeOnFreshDatabase(mongo.uri, {}),
  )

  storedFormatContract('a real mongod', async function () {
    return serverUri.call(this)
  })

  serviceContract('a real mongod', { uri: serverUri, documents: storedDocuments })
})
