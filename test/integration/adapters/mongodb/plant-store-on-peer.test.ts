import { startMongoPeer, type MongoPeer } from '../../../support/mongo-peer/server.js'
import { plantStoreContract } from '../../../contract/plant-store.contract.js'
import { storedFormatContract } from '../../../contract/mongodb/stored-format.contract.js'
import { storeOnFreshDatabase } from '../../../support/mongodb/support.js'

describe('MongoDB adapter on the wire peer', function () {
  let peer: MongoPeer | undefined
  const uri = (): string => {
    if (peer === undefined) throw new Error('the peer did not start')
    return peer.uri
  }

  before(async function () {
    peer = await startMongoPeer()
  })
  after(async function () {
    await peer?.stop()
  })

  plantStoreContract('MongoDB on the wire peer', async () => {
    const fixture = storeOnFreshDatabase(uri())
    let cut = false
    return {
      ...fixture,
      cutOff: async () => {
        cut = true
        await peer?.goDown()
      },
      release: async () => {
        if (cut) await peer?.comeBack()
        await fixture.release()
      },
    }
  })

  storedFormatContract('the wire peer', async function () {
    return uri()
  })
})
