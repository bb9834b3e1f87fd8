import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { MongoClient, type MongoClientOptions } from 'mongodb'
import { clientOptionsFor, resolveTimeouts, writeConcernTimeoutWithin } from '../../../../adapters/mongodb/client-options.js'
import { refusedOptionsOf } from '../../../../adapters/mongodb/refused-options.js'

// The refusals read the options a client was made with, so an option is refused whether the
// connection string names it or code passes it (the driver merges the two before this looks).
describe('MongoDB options refused at start', function () {
  const DEADLINE_MS = resolveTimeouts().operationMs
  const refusedFor = (uri: string, options: MongoClientOptions = clientOptionsFor(uri, resolveTimeouts())): ReadonlyArray<string> =>
    refusedOptionsOf(new MongoClient(uri, options), DEADLINE_MS)

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

  it('refuses a socket timeout below the deadline, from the string or from code, naming both and what to do', function () {
    for (const given of [refusedFor('mongodb://db.example/?socketTimeoutMS=100'), refusedFor('mongodb://db.example/', { socketTimeoutMS: DEADLINE_MS - 1 })]) {
      const [reason, ...others] = given
      expect(others).to.deep.equal([])
      expect(reason).to.match(/^socketTimeoutMS=\d+ cannot be used below the 5000 ms deadline \(MONGODB_TIMEOUT_MS\).*leave it out.*at least 5000/)
    }
  })

  it('accepts no socket timeout, and one at or above the deadline, which never fires first', function () {
    for (const value of [0, DEADLINE_MS, DEADLINE_MS * 2]) expect(refusedFor(`mongodb://db.example/?socketTimeoutMS=${value}`), String(value)).to.deep.equal([])
  })

  it('accepts compression named "none" and acknowledged write concerns', function () {
    expect(refusedFor('mongodb://db.example/', { compressors: ['none'], writeConcern: { w: 1 } })).to.deep.equal([])
    expect(refusedFor('mongodb://db.example/?w=1&compressors=none')).to.deep.equal([])
  })
})

describe('docs/mongodb.md on connection string options', function () {
  const page = readFileSync(new URL('../../../../docs/mongodb.md', import.meta.url), 'utf8')
  const rowOf = (option: string): string | undefined => page.split('\n').find((line) => line.startsWith(`| \`${option}`))

  it('lists every option refused at start, in the table of refusals', function () {
    for (const option of ['w=0', 'compressors=', 'promoteLongs=false', 'raw=true']) expect(rowOf(option), option).to.not.equal(undefined)
    expect(rowOf('promoteLongs=false')).to.include('`promoteValues=false`')
  })

  it('states the write concern timeout the adapter sets', function () {
    const stated = /about (\d+) ms of a fresh (\d+) ms deadline/.exec(rowOf('wtimeoutMS') ?? '')
    expect(stated?.[2]).to.equal(String(resolveTimeouts().operationMs))
    expect(stated?.[1]).to.equal(String(writeConcernTimeoutWithin(resolveTimeouts().operationMs)))
  })
})
