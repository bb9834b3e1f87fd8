import { expect } from 'chai'
import type { Document } from 'bson'
import { expectRight } from '../../../support/either.js'
import { PEER_MONITORING_MODES, startMongoPeer, type MongoPeer } from '../../../support/mongo-peer/server.js'
import { plant } from '../../../support/plants.js'
import { freshDbName, openStore, TEST_TIMEOUTS } from '../../../support/mongodb/support.js'

// BSON numbers (Int32, Double) as the numbers they hold.
const plainValues = (document: Document): Document =>
  Object.fromEntries(Object.entries(document).map(([key, value]) => [key, typeof value === 'object' && value !== null ? (value as { valueOf(): unknown }).valueOf() : value]))

// What the server is asked for, not what the client options say: the write concern each insert
// carries over the wire, for a connection string naming none, one or two of its settings.
for (const monitoring of PEER_MONITORING_MODES) describe(`the write concern MongoDB receives with each insert (wire peer, ${monitoring} monitoring)`, function () {
  let peer: MongoPeer
  let inserts: Document[]
  beforeEach(async function () {
    inserts = []
    peer = await startMongoPeer({ monitoring, onCommand: (name, command) => (name === 'insert' ? inserts.push(command) : undefined) })
  })
  afterEach(async function () {
    await peer.stop()
  })

  // The server's wait for the write concern ends just before the insert's deadline
  // (client-options.ts): nearly all of a fresh call's deadline, never past it.
  const WITHIN_DEADLINE = 'within the deadline'
  const DEFAULTS = { w: 'majority', j: true, wtimeout: WITHIN_DEADLINE }
  const cases: ReadonlyArray<{ query: string; expected: Document }> = [
    { query: '', expected: DEFAULTS },
    { query: 'w=1', expected: { ...DEFAULTS, w: 1 } },
    { query: 'journal=false', expected: { ...DEFAULTS, j: false } },
    { query: 'wtimeoutMS=250', expected: { ...DEFAULTS, wtimeout: 250 } },
    { query: 'w=1&journal=false', expected: { ...DEFAULTS, w: 1, j: false } },
    { query: 'w=1&wtimeoutMS=250', expected: { ...DEFAULTS, w: 1, wtimeout: 250 } },
    { query: 'journal=false&wtimeoutMS=250', expected: { ...DEFAULTS, j: false, wtimeout: 250 } },
  ]
  const asSeen = (concern: Document): Document => {
    const { wtimeout, ...rest } = plainValues(concern)
    // Nearly all of what the insert had left: above half the deadline (a busy machine's pause
    // before the send is not counted against the adapter), never past 19/20 of it.
    const withinDeadline = typeof wtimeout === 'number' && wtimeout > 0.5 * TEST_TIMEOUTS.operationMs && wtimeout <= 0.99 * TEST_TIMEOUTS.operationMs
    return { ...rest, wtimeout: withinDeadline ? WITHIN_DEADLINE : wtimeout }
  }
  for (const { query, expected } of cases) {
    it(`${query === '' ? 'naming none' : `naming ${query}`}: ${JSON.stringify(expected)}`, async function () {
      const { store, close } = openStore(query === '' ? peer.uri : `${peer.uri}&${query}`, freshDbName('wc'))
      try {
        // Connected first: the insert's time left is then the deadline less the send.
        expectRight(await store.checkReady()())
        expectRight(await store.insertUnlessExists(plant(1n, 'Monstera'))())
      } finally {
        await close()
      }
      expect(inserts).to.have.length.greaterThan(0)
      for (const insert of inserts) expect(asSeen(insert['writeConcern'] as Document)).to.deep.equal(expected)
    })
  }
})
