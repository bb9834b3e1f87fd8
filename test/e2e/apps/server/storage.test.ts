import { expect } from 'chai'
import * as E from 'fp-ts/lib/Either.js'
import { openStorage } from '../../../../apps/server/storage.js'
import { systemClock } from '../../../../wire/index.js'
import { useServiceProcesses } from '../../../support/service-process.js'

// A connection string naming an option that would break what the service promises (decoding
// options that make every stored plant unreadable, unacknowledged writes, compression) is a
// configuration that can be known wrong at start: it stops the service there, not request by request.
describe('storage chosen by configuration', function () {
  const BREAKING = ['promoteLongs=false', 'promoteValues=false', 'w=0', 'compressors=zlib']

  for (const option of BREAKING) {
    it(`refuses MONGODB_URI with ${option}, naming the variable and the option`, async function () {
      const opened = openStorage({ _tag: 'MongoDb', settings: { uri: `mongodb://127.0.0.1:27017/?${option}`, dbName: 'plant_store', timeouts: { operationMs: 5000 } } }, systemClock)
      if (E.isRight(opened)) {
        await opened.right.close()
        expect.fail(`${option} was accepted`)
      }
      expect(opened.left).to.match(/^MONGODB_URI: expected a connection string this service can use/)
      expect(opened.left).to.include(`${option} cannot be used: `)
    })
  }

  describe('as npm start runs it', function () {
    this.timeout(20_000)
    const startService = useServiceProcesses()

    it('exits 1 at start, naming the options that cannot work', async function () {
      const service = startService({ MONGODB_URI: `mongodb://127.0.0.1:9/?${BREAKING.join('&')}` })
      expect(await service.exited).to.equal(1)
      expect(service.stderr()).to.include('MONGODB_URI: expected a connection string this service can use')
      expect(service.stderr()).to.include('promoteLongs=false and promoteValues=false cannot be used')
      expect(service.stderr()).to.include('w=0 cannot be used')
      expect(service.stderr()).to.include('compressors=zlib cannot be used')
    })
  })
})
