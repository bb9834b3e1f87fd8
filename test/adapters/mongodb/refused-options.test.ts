import { expect } from 'chai'
import { readFileSync } from 'node:fs'
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

describe('docs/mongodb.md on connection string options', function () {
  const page = readFileSync(new URL('../../../docs/mongodb.md', import.meta.url), 'utf8')
  const rowOf = (option: string): string | undefined => page.split('\n').find((line) => line.startsWith(`| \`${option}`))

  it('lists every option refused at start, in the table of refusals', function () {
    for (const option of ['w=0', 'compressors=', 'promoteLongs=false', 'raw=true']) expect(rowOf(option), option).to.not.equal(undefined)
    expect(rowOf('promoteLongs=false')).to.include('`promoteValues=false`')
  })

  it('states the write concern timeout the adapter sets', function () {
    const { wtimeoutMS } = new MongoClient('mongodb://db.example', clientOptionsFor('mongodb://db.example', resolveTimeouts())).options.writeConcern ?? {}
    expect(/\((\d+) ms by default\)/.exec(rowOf('wtimeoutMS') ?? '')?.[1]).to.equal(String(wtimeoutMS))
  })
})
