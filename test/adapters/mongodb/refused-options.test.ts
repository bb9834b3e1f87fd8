import { expect } from 'chai'
import { MongoClient, type MongoClientOptions } from 'mongodb'
import { clientOptionsFor, resolveTimeouts } from '../../../adapters/mongodb/client-options.js'
import { refusedOptionsOf } from '../../../adapters/mongodb/refused-options.js'

// The refusals read the options a client was made with, so an option is refused whether the
// connection string names it or code passes it (the driver merges the two before this looks).
describe('MongoDB options refused at start', function () {
  const refusedFor = (uri: string, options: MongoClientOptions = clientOptionsFor(uri, resolveTimeouts())): ReadonlyArray<string> =>
    refusedOptionsOf(new MongoClient(uri, options))

  it('refuses none of the adapter’s own options', function () {
    expect(refusedFor('mongodb://db.example/?replicaSet=rs0')).to.deep.equal([])
  })

  it('refuses an unacknowledged write concern given in code', function () {
    const [reason, ...others] = refusedFor('mongodb://db.example/', { writeConcern: { w: 0, journal: true } })
    expect(others).to.deep.equal([])
    expect(reason).to.match(/^w=0 cannot be used: an unacknowledged insert gets no answer/)
  })

  it('refuses compression given in code', function () {
    const [reason, ...others] = refusedFor('mongodb://db.example/', { compressors: ['zstd', 'zlib'] })
    expect(others).to.deep.equal([])
    expect(reason).to.match(/^compressors=zstd,zlib cannot be used: /)
  })

  it('accepts compression named "none" and acknowledged write concerns', function () {
    expect(refusedFor('mongodb://db.example/', { compressors: ['none'], writeConcern: { w: 1 } })).to.deep.equal([])
    expect(refusedFor('mongodb://db.example/?w=1&compressors=none')).to.deep.equal([])
  })
})
